/** A value that can be bound to a query parameter on both drivers. */
export type SqlValue = string | number | bigint | null | Uint8Array;
export type SqlParams = Record<string, SqlValue>;

/**
 * A metadata query with a stable name and `:name` placeholders. The text is compiled once per
 * dialect into positional parameters; values are only ever bound, never spliced into the text.
 */
export interface NamedQuery<P extends SqlParams, R> {
  readonly name: string;
  readonly text: string;
  /** Phantom fields carrying the parameter and row types. */
  readonly __types?: { params: P; row: R };
}

export function namedQuery<P extends SqlParams = Record<never, SqlValue>, R = never>(name: string, text: string): NamedQuery<P, R> {
  return { name, text };
}

export interface CompiledQuery {
  /** `$1, $2 …` placeholders (Postgres) or `?1, ?2 …` (SQLite), in the order of `parameterNames`. */
  text: string;
  parameterNames: string[];
}

type Dialect = 'sqlite' | 'postgres';
const compiled = new WeakMap<NamedQuery<SqlParams, unknown>, Partial<Record<Dialect, CompiledQuery>>>();

export function compileQuery(query: NamedQuery<SqlParams, unknown>, dialect: Dialect): CompiledQuery {
  const cache = compiled.get(query) ?? {};
  const hit = cache[dialect];
  if (hit) return hit;
  const result = compile(query.text, dialect === 'postgres' ? '$' : '?');
  cache[dialect] = result;
  compiled.set(query, cache);
  return result;
}

export function bindParameters(query: NamedQuery<SqlParams, unknown>, compiledQuery: CompiledQuery, params: SqlParams): SqlValue[] {
  return compiledQuery.parameterNames.map((name) => {
    const value = params[name];
    if (value === undefined) throw new Error(`query ${query.name}: no value for parameter :${name}`);
    return value;
  });
}

/**
 * Replaces `:name` with positional markers, skipping string literals, quoted identifiers, comments and
 * Postgres `::type` casts. The same name used twice binds the same position.
 */
function compile(text: string, marker: '$' | '?'): CompiledQuery {
  const parameterNames: string[] = [];
  let out = '';
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    const next = text[i + 1];
    if (char === "'" || char === '"') {
      const end = skipQuoted(text, i, char);
      out += text.slice(i, end);
      i = end;
    } else if (char === '-' && next === '-') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      out += text.slice(i, stop);
      i = stop;
    } else if (char === ':' && next === ':') {
      out += '::';
      i += 2;
    } else if (char === ':' && next !== undefined && /[A-Za-z_]/.test(next)) {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1))!;
      const name = match[0];
      let position = parameterNames.indexOf(name);
      if (position === -1) position = parameterNames.push(name) - 1;
      out += `${marker}${position + 1}`;
      i += 1 + name.length;
    } else {
      out += char;
      i += 1;
    }
  }
  return { text: out, parameterNames };
}

function skipQuoted(text: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === quote) {
      if (text[i + 1] === quote) i += 2;
      else return i + 1;
    } else i += 1;
  }
  return text.length;
}
