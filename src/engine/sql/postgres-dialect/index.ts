import { nameResultColumns } from './column-names';
import { refuseJsonRowComparison } from './json-set-operations';
import { setOperationOf, type SetOperation } from './set-operations';
import { translatePostgres, type Translation } from './translate';

export { translatePostgres } from './translate';

/**
 * A statement as the engine runs it: its result columns named by Postgres' rules from the text as
 * written, then the Postgres-only syntax translated to DuckDB SQL, with the check its own UNION,
 * INTERSECT or EXCEPT must pass once DuckDB has told the branches' types.
 */
export function translatePostgresStatement(sql: string): Translation & { setOperation?: SetOperation } {
  const named = nameResultColumns(sql);
  refuseJsonRowComparison(named.sql);
  const translated = translatePostgres(named.sql);
  const setOperation = setOperationOf(translated.sql);
  const rewrites = named.named ? ['result column names: Postgres rules', ...translated.rewrites] : translated.rewrites;
  return setOperation ? { sql: translated.sql, rewrites, setOperation } : { sql: translated.sql, rewrites };
}
