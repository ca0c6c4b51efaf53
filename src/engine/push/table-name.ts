import { RequestValidationError } from '../../errors/app-error';
import { lakeAlias, readDefaultCatalog } from '../workspace-engine';

/** `<namespace>.<table>`, each part a plain identifier; stored lower-case like unquoted SQL names. */
export interface TableName {
  schema: string;
  table: string;
}

const identifier = /^[a-z_][a-z0-9_]{0,62}$/;
// Names the engine or DuckDB itself uses: DuckDB's own schemas, and the catalogs attached to a workspace's
// instance (a namespace named like one would make `<namespace>.<table>` read as `<catalog>.<schema>`).
const reservedSchemas = new Set(['information_schema', 'pg_catalog', 'system', 'temp', readDefaultCatalog, lakeAlias]);

export const tableNameRules = `a namespace and a table name joined by a dot; each starts with a letter or an underscore, continues with letters, digits or underscores, has at most 63 characters, and is folded to lower case; namespaces starting with two underscores and the names ${[...reservedSchemas].join(', ')} are reserved`;

export function parseTableName(text: string, loc: (string | number)[] = ['body', 'table']): TableName {
  const parts = text.trim().toLowerCase().split('.');
  const [schema, table] = parts;
  if (parts.length !== 2 || !schema || !table || !identifier.test(schema) || !identifier.test(table)) {
    throw RequestValidationError.at(loc, `Table must be ${tableNameRules}`, 'value_error');
  }
  if (reservedSchemas.has(schema) || schema.startsWith('__')) throw RequestValidationError.at(loc, `The namespace "${schema}" is reserved`, 'value_error');
  return { schema, table };
}

export function qualifiedName(name: TableName): string {
  return `${name.schema}.${name.table}`;
}
