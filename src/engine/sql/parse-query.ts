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

/**
 * Parses the tree keeping every number exactly as DuckDB wrote it (unset locations are 2^64 - 1, and
 * constants may be integers past 2^53), so that a rewritten tree can be written back unchanged.
 */
function parseExactly(text: string): unknown {
  return json.parse(text, (_key, value, context) => (typeof value === 'number' && context.source !== undefined && context.source !== String(value) ? json.rawJSON(context.source) : value));
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
