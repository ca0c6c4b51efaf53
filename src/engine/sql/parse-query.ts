import { AppError } from '../../errors/app-error';

/** DuckDB's own parse tree of a statement, as `json_serialize_sql` writes it. */
export type AstNode = { [key: string]: AstValue };
export type AstValue = string | number | boolean | null | AstNode | AstValue[];

interface SerializedSql {
  error: boolean;
  error_type?: string;
  error_message?: string;
  position?: string;
  statements?: { node: AstNode }[];
}

/**
 * DuckDB's parse tree as JSON text. Qualified with the system catalog: resolving the function through
 * a default DuckLake catalog would cost a catalog round trip per query.
 */
export const serializeSqlStatement = 'SELECT system.main.json_serialize_sql($1::VARCHAR)';

/** Runs `serializeSqlStatement` on one statement's text. */
export type SqlSerializer = (sql: string) => Promise<string>;

/**
 * Parses with DuckDB's own parser (the authority on what DuckDB will run) without running anything.
 * Only a single read statement passes: the serializer refuses every statement that is not a query.
 */
export async function parseQuery(serialize: SqlSerializer, sql: string, translated = false): Promise<AstNode> {
  const parsed = parseExactly(await serialize(sql)) as SerializedSql;
  if (parsed.error) {
    // DuckDB's parser gives up on expressions nested a thousand deep, and its grammar's stack on deeper brackets.
    if (parsed.error_type === 'parser' && /Max expression depth limit|memory exhausted/i.test(parsed.error_message ?? '')) {
      throw new AppError('QUERY_TOO_COMPLEX', 'The query nests expressions too deeply for the parser', {
        hint: 'Group long chains of operators in parentheses, or name nested parts once in a CTE.',
      });
    }
    if (parsed.error_type === 'parser') {
      const where = positionHint(sql, Number(parsed.position ?? Number.NaN));
      // After a Postgres rewrite the position points into the rewritten text, so that is what the hint shows.
      const hint = where && translated ? `${where}\n(in the query as translated to DuckDB SQL)` : where;
      throw new AppError('SYNTAX_ERROR', `Syntax error: ${parsed.error_message}`, { hint });
    }
    throw new AppError('STATEMENT_NOT_ALLOWED', 'Only read queries can run here (SELECT, WITH, VALUES, TABLE, FROM …)', {
      hint: 'Write data with the push endpoint, transforms or connections.',
    });
  }
  const statements = parsed.statements ?? [];
  if (statements.length !== 1) {
    throw new AppError('STATEMENT_NOT_ALLOWED', statements.length === 0 ? 'The request holds no statement' : 'Send one statement per request');
  }
  return statements[0]!.node;
}

/** JSON.parse with the reviver's access to each value's source text (ES2026, in Bun), and its counterpart for writing. */
interface JsonWithSource {
  parse(text: string, reviver: (key: string, value: unknown, context: { source?: string }) => unknown): unknown;
  rawJSON(text: string): unknown;
  isRawJSON(value: unknown): boolean;
}
const json = JSON as unknown as JsonWithSource;

/** The number DuckDB writes for an unset location (2^64 - 1), and what it becomes as a double. */
const unsetLocation = '18446744073709551615';
const unsetLocationAsDouble = String(Number(unsetLocation));

/**
 * Parses the tree keeping every number exactly as DuckDB wrote it, so that a rewritten tree can be
 * written back unchanged (DuckDB reads `100.0` as a double and `100` as an integer). An integer of
 * up to 15 digits reads back as written; the only longer ones in most trees are unset locations,
 * restored when the tree is written (see statementJson). A tree with any other number (a fraction,
 * an exponent, an integer past 2^53) goes through the reviver that keeps each number's source text,
 * which costs fifteen times as much.
 */
function parseExactly(text: string): unknown {
  if (onlyPlainNumbers(text)) return JSON.parse(text);
  return json.parse(text, (_key, value, context) => (typeof value === 'number' && context.source !== undefined && context.source !== String(value) ? json.rawJSON(context.source) : value));
}

/** Whether every number is a short integer or an unset location. Text inside strings may look like a number too: it only costs the slower path. */
function onlyPlainNumbers(text: string): boolean {
  const fragile = /[:,[]-?(?:[0-9]+[.eE]|[0-9]{16,})/g;
  for (let match = fragile.exec(text); match; match = fragile.exec(text)) {
    // Outside a string, a key's quotes are bare; inside one they would be escaped.
    if (match[0] !== `:${unsetLocation}` || !text.endsWith('"query_location"', match.index)) return false;
  }
  return true;
}

/** A statement's tree as the JSON `json_deserialize_sql` reads, every number as DuckDB wrote it. */
export function statementJson(node: AstNode): string {
  const text = JSON.stringify({ error: false, statements: [{ node, named_param_map: [] }] });
  return text.replaceAll(`"query_location":${unsetLocationAsDouble}`, `"query_location":${unsetLocation}`);
}

/** A number of the tree kept as its source text (see parseExactly): a leaf, to copy as it is. */
export function isExactNumber(value: unknown): boolean {
  return json.isRawJSON(value);
}

/** "line 2, column 14" plus the line with a caret under the position. */
export function positionHint(sql: string, position: number): string | undefined {
  if (!Number.isFinite(position)) return undefined;
  const before = sql.slice(0, position);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const column = position - lineStart + 1;
  const text = sql.slice(lineStart).split('\n')[0] ?? '';
  return `At line ${line}, column ${column} (character ${position + 1}):\n${text}\n${' '.repeat(column - 1)}^`;
}
