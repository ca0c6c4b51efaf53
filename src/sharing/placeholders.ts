import { RequestValidationError, type ValidationIssue } from '../errors/app-error';
import { sqlTypeOf, type ParameterDefinition } from './parameters';

/** What a saved query's text becomes before it runs: each `{{name}}` a typed parameter marker. */
export interface ParameterizedSql {
  sql: string;
  /** The markers the text holds, which the caller binds (all of the declared parameters). */
  names: string[];
}

type Piece = { kind: 'text'; text: string } | { kind: 'placeholder'; name: string; at: number } | { kind: 'marker'; text: string };

/**
 * Turns `{{name}}` into `CAST($name AS <type>)`: the value is bound to the marker when the statement
 * runs, never written into its text, and the cast gives the marker its declared type, so the query's
 * result columns are known without a value. A placeholder inside a string, a quoted name or a comment
 * is text like any other. A parameter marker written into the query itself (`$1`, `$name`) is refused,
 * and so is a placeholder that names no declared parameter or a declaration no placeholder uses.
 */
export function parameterizedSql(
  sql: string,
  definitions: ParameterDefinition[],
  at: { sql: (string | number)[]; parameters: (string | number)[] },
): ParameterizedSql {
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  const issues: ValidationIssue[] = [];
  const used = new Set<string>();
  let out = '';
  for (const piece of scan(sql)) {
    if (piece.kind === 'text') {
      out += piece.text;
    } else if (piece.kind === 'marker') {
      issues.push({
        loc: at.sql,
        msg: `The parameter marker ${piece.text} cannot be written into a saved query: declare a parameter and write {{name}}`,
        type: 'value_error',
      });
    } else {
      const definition = byName.get(piece.name);
      if (!definition) {
        issues.push({
          loc: at.sql,
          msg: `{{${piece.name}}} names no declared parameter (declared: ${[...byName.keys()].join(', ') || 'none'})`,
          type: 'value_error',
        });
        continue;
      }
      used.add(piece.name);
      // Spaces around the cast keep it from running into a neighbouring word or operator.
      out += ` CAST($${piece.name} AS ${sqlTypeOf[definition.type]}) `;
    }
  }
  definitions.forEach((definition, index) => {
    if (!used.has(definition.name)) {
      issues.push({
        loc: [...at.parameters, index, 'name'],
        msg: `The parameter "${definition.name}" is not used: write {{${definition.name}}} where its value goes (outside quotes)`,
        type: 'value_error',
      });
    }
  });
  if (issues.length > 0) throw new RequestValidationError(issues);
  return { sql: out, names: [...used] };
}

/** Whether the text holds a `{{name}}` placeholder outside strings, quoted names and comments. */
export function hasPlaceholders(sql: string): boolean {
  return scan(sql).some((piece) => piece.kind !== 'text');
}

const placeholder = /^\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/i;
const marker = /^\$(\d+|[a-z_][a-z0-9_]*)(?!\$)/i;
const dollarQuoteStart = /^\$([a-z_][a-z0-9_]*)?\$/i;

/** Splits the text into plain text, placeholders and raw parameter markers, in one pass. */
function scan(sql: string): Piece[] {
  const pieces: Piece[] = [];
  let text = '';
  let i = 0;
  const flush = () => {
    if (text) pieces.push({ kind: 'text', text });
    text = '';
  };
  while (i < sql.length) {
    const end = skipLiteral(sql, i);
    if (end > i) {
      text += sql.slice(i, end);
      i = end;
      continue;
    }
    const found = sql[i] === '{' ? placeholder.exec(sql.slice(i, i + 200)) : null;
    const raw = sql[i] === '$' && !/[a-z0-9_]/i.test(sql[i - 1] ?? '') ? marker.exec(sql.slice(i, i + 200)) : null;
    if (found) {
      flush();
      pieces.push({ kind: 'placeholder', name: found[1]!.toLowerCase(), at: i });
      i += found[0].length;
    } else if (raw) {
      flush();
      pieces.push({ kind: 'marker', text: raw[0] });
      i += raw[0].length;
    } else {
      text += sql[i];
      i += 1;
    }
  }
  flush();
  return pieces;
}

/** The end of a string, quoted name, comment or dollar-quoted string starting at `i` (i itself when none does). */
function skipLiteral(sql: string, i: number): number {
  const char = sql[i];
  const next = sql[i + 1];
  if (char === "'") return skipQuoted(sql, i, "'", /[eE]/.test(sql[i - 1] ?? '') && !/[a-z0-9_]/i.test(sql[i - 2] ?? ''));
  if (char === '"') return skipQuoted(sql, i, '"', false);
  if (char === '-' && next === '-') {
    const end = sql.indexOf('\n', i);
    return end === -1 ? sql.length : end;
  }
  if (char === '/' && next === '*') return skipBlockComment(sql, i);
  if (char === '$' && !/[a-z0-9_]/i.test(sql[i - 1] ?? '')) {
    const start = dollarQuoteStart.exec(sql.slice(i, i + 200));
    if (start) {
      const end = sql.indexOf(start[0], i + start[0].length);
      return end === -1 ? sql.length : end + start[0].length;
    }
  }
  return i;
}

function skipQuoted(sql: string, start: number, quote: string, backslashEscapes: boolean): number {
  let i = start + 1;
  while (i < sql.length) {
    if (backslashEscapes && sql[i] === '\\') i += 2;
    else if (sql[i] === quote && sql[i + 1] === quote) i += 2;
    else if (sql[i] === quote) return i + 1;
    else i += 1;
  }
  return sql.length;
}

/** Postgres block comments nest. */
function skipBlockComment(sql: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < sql.length) {
    if (sql[i] === '/' && sql[i + 1] === '*') {
      depth += 1;
      i += 2;
    } else if (sql[i] === '*' && sql[i + 1] === '/') {
      depth -= 1;
      i += 2;
      if (depth === 0) return i;
    } else i += 1;
  }
  return sql.length;
}
