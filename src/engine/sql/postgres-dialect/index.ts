import { nameResultColumns } from './column-names';
import { translatePostgres, type Translation } from './translate';

export { translatePostgres } from './translate';

/**
 * A statement as the engine runs it: its result columns named by Postgres' rules from the text as
 * written, then the Postgres-only syntax translated to DuckDB SQL.
 */
export function translatePostgresStatement(sql: string): Translation {
  const named = nameResultColumns(sql);
  const translated = translatePostgres(named.sql);
  return named.named ? { sql: translated.sql, rewrites: ['result column names: Postgres rules', ...translated.rewrites] } : translated;
}
