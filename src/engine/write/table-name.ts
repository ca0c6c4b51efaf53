import { InvalidTableName } from './write-errors';
import { lakeAlias, readDefaultCatalog } from '../catalog-names';

/** `<namespace>.<table>`, each part a plain identifier; stored lower-case like unquoted SQL names. */
export interface TableName {
  schema: string;
  table: string;
}

// ASCII only, tested before folding: toLowerCase() turns some other letters (the Kelvin sign K) into ASCII ones.
const identifier = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
// Names the engine or DuckDB itself uses: DuckDB's own schemas, and the catalogs attached to a workspace's
// instance (a namespace named like one would make `<namespace>.<table>` read as `<catalog>.<schema>`).
const reservedSchemas = new Set(['information_schema', 'pg_catalog', 'system', 'temp', readDefaultCatalog, lakeAlias]);

export const tableNameRules = `a namespace and a table name joined by a dot; each starts with a letter or an underscore, continues with letters, digits or underscores, has at most 63 characters, and is folded to lower case; namespaces starting with two underscores and the names ${[...reservedSchemas].join(', ')} are reserved`;

/**
 * The same rules as JSON Schema patterns, for the interface's document: a name matches its pattern
 * and not the reserved one. A reference may leave out the namespace (`main`).
 */
const part = identifier.source.slice(1, -1);
export const identifierPattern = identifier.source;
export const tableNamePattern = `^${part}\\.${part}$`;
export const tableReferencePattern = `^(${part}\\.)?${part}$`;
export const reservedNamespacePattern = `^(__[A-Za-z0-9_]*|${[...reservedSchemas].map(caseless).join('|')})$`;
export const reservedTableNamePattern = `^(__[A-Za-z0-9_]*|${[...reservedSchemas].map(caseless).join('|')})\\.`;

export function parseTableName(text: string): TableName {
  const parts = text.split('.');
  if (parts.length !== 2 || !parts.every((part) => identifier.test(part))) throw new InvalidTableName(`Table must be ${tableNameRules}`);
  const [schema, table] = parts.map((part) => part.toLowerCase()) as [string, string];
  if (reservedSchemas.has(schema) || schema.startsWith('__')) throw new InvalidTableName(`The namespace "${schema}" is reserved`);
  return { schema, table };
}

export function qualifiedName(name: TableName): string {
  return `${name.schema}.${name.table}`;
}

/** `lake` as `[Ll][Aa][Kk][Ee]`: JSON Schema patterns have no case-insensitive flag. */
function caseless(name: string): string {
  return [...name].map((char) => (/[a-z]/.test(char) ? `[${char.toUpperCase()}${char}]` : char)).join('');
}
