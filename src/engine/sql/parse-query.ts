import { AppError } from '../../errors/app-error';
import { parserSqlstate } from './postgres-errors';

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
      throw new AppError('SYNTAX_ERROR', `Syntax error: ${parsed.error_message}`, { hint, sqlstate: parserSqlstate(parsed.error_message ?? '') });
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

/** JSON's counterparts for numbers kept as their source text (ES2026, in Bun). */
interface JsonWithRawText {
  rawJSON(text: string): unknown;
  isRawJSON(value: unknown): boolean;
}
const json = JSON as unknown as JsonWithRawText;

/** The number DuckDB writes for an unset location (2^64 - 1), and what it becomes as a double. */
const unsetLocation = '18446744073709551615';
const unsetLocationAsDouble = String(Number(unsetLocation));

/**
 * Parses the tree keeping every number exactly as DuckDB wrote it, so that a rewritten tree can be
 * written back unchanged (DuckDB reads `100.0` as a double and `100` as an integer, and constants
 * may be integers past 2^53). An integer of up to 15 digits reads back as written; the only longer
 * ones in most trees are unset locations, restored when the tree is written (see statementJson).
 * A tree with any other number has those numbers marked as strings first and turned into raw JSON
 * after the parse: JSON.parse itself keeps no call stack per level, so no depth of tree the parser
 * accepts can overflow it.
 */
function parseExactly(text: string): unknown {
  if (onlyPlainNumbers(text)) return JSON.parse(text);
  // A marker no string of the tree can hold: it is new for every parse.
  const marker = `\u0000${crypto.randomUUID()}:`;
  const marked = text.replace(/"(?:[^"\\]|\\.)*"|-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/g, (token) =>
    token.startsWith('"') || /^-?[0-9]{1,15}$/.test(token) ? token : JSON.stringify(marker + token),
  );
  const tree: unknown = JSON.parse(marked);
  restoreNumbers(tree, marker);
  return tree;
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

/** Turns the marked strings back into numbers with their source text, walking the tree with a stack of its own. */
function restoreNumbers(tree: unknown, marker: string): void {
  const pending: unknown[] = [tree];
  while (pending.length > 0) {
    const value = pending.pop();
    if (value === null || typeof value !== 'object') continue;
    const entries = value as Record<string, unknown>;
    for (const key of Object.keys(entries)) {
      const child = entries[key];
      if (typeof child === 'string' && child.startsWith(marker)) entries[key] = json.rawJSON(child.slice(marker.length));
      else if (child !== null && typeof child === 'object') pending.push(child);
    }
  }
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
