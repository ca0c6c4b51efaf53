/** One query of the differential suite: Postgres SQL over the pushed tables, run unchanged on both engines. */
export interface DifferentialQuery {
  category: string;
  sql: string;
}

/** Queries of one category, from SQL texts. */
export function category(name: string, sqls: readonly string[]): DifferentialQuery[] {
  return sqls.map((sql) => ({ category: name, sql }));
}

/** `SELECT <expr>` for each expression. */
export const scalars = (expressions: readonly string[]) => expressions.map((expression) => `SELECT ${expression}`);

/** Each expression over every row of a table, with its id, in id order. */
export const perRow = (table: string, expressions: readonly string[]) =>
  expressions.map((expression) => `SELECT id, ${expression} FROM shop.${table} ORDER BY id`);
