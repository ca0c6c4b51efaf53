import { nameResultColumns } from './column-names';
import { JsonbPositions } from './json-columns';
import { refuseJsonRowComparison } from './json-set-operations';
import { setOperationOf, type SetOperation } from './set-operations';
import { translatePostgres, type Translation } from './translate';

export { translatePostgres } from './translate';

/** What the statement's text does not tell: the names (lower case) of its tables' JSON columns. */
export interface StatementContext {
  jsonColumns?: ReadonlySet<string>;
}

/**
 * A statement as the engine runs it: its result columns named by Postgres' rules from the text as
 * written, then the Postgres-only syntax translated to DuckDB SQL, with the check its own UNION,
 * INTERSECT or EXCEPT must pass once DuckDB has told the branches' types.
 */
export function translatePostgresStatement(
  sql: string,
  context: StatementContext = {},
): Translation & { setOperation?: SetOperation; jsonbReferences?: string[] } {
  const named = nameResultColumns(sql);
  refuseJsonRowComparison(named.sql);
  const positions = new JsonbPositions(named.sql);
  const marked = context.jsonColumns && context.jsonColumns.size > 0 ? positions.marked(context.jsonColumns) : null;
  const translated = translatePostgres(marked ?? named.sql);
  const setOperation = setOperationOf(translated.sql);
  const rewrites = [
    ...(named.named ? ['result column names: Postgres rules'] : []),
    ...(marked !== null ? ['JSON columns read as jsonb'] : []),
    ...translated.rewrites,
  ];
  const jsonbReferences = positions.names();
  return {
    sql: translated.sql,
    rewrites,
    ...(setOperation ? { setOperation } : {}),
    ...(jsonbReferences.length > 0 ? { jsonbReferences } : {}),
  };
}
