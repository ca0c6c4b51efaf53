import type { LakeConfig, MetadataConfig } from '../config';
import { sqlIdentifier, sqlString } from './sql-literals';
import { lakeAlias, metadataDatabase } from './catalog-names';

/** Where DuckLake catalogs live: SQLite files in a directory, or schemas of the Postgres metadata database. */
export type CatalogStore = { kind: 'sqlite'; dir: string } | { kind: 'postgres'; url: string };

export function catalogStoreFor(metadata: MetadataConfig, dataDir: string): CatalogStore {
  return metadata.kind === 'postgres' ? { kind: 'postgres', url: metadata.url } : { kind: 'sqlite', dir: `${dataDir}/catalogs` };
}

export interface CatalogLocation {
  /** A uuid; names the catalog, its Postgres schema and its data prefix. */
  workspaceId: string;
  catalog: CatalogStore;
  lake: LakeConfig;
}

const workspaceIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function checkedId(workspaceId: string): string {
  if (!workspaceIdPattern.test(workspaceId)) throw new Error(`not a workspace id: ${workspaceId}`);
  return workspaceId;
}

/** The workspace's data prefix, relative to the lake root. */
export function workspaceDataPrefix(workspaceId: string): string {
  return `${checkedId(workspaceId)}/`;
}

/** The workspace's DATA_PATH: `<LAKE_URL>/<workspace_id>/`. */
export function workspaceDataPath(location: CatalogLocation): string {
  const prefix = workspaceDataPrefix(location.workspaceId);
  const { lake } = location;
  if (lake.kind === 'local') return `${lake.root}/${prefix}`;
  return `s3://${lake.bucket}/${lake.prefix ? `${lake.prefix}/` : ''}${prefix}`;
}

/** The Postgres schema holding one workspace's DuckLake tables. */
export function catalogSchemaName(workspaceId: string): string {
  return `ducklake_${checkedId(workspaceId).replaceAll('-', '')}`;
}

/** Where the lake's own tables are, qualified, for a workspace's catalog attached as the lake. */
export function lakeMetadataSchema(store: CatalogStore, workspaceId: string): string {
  return `${metadataDatabase(lakeAlias)}.${store.kind === 'postgres' ? catalogSchemaName(workspaceId) : 'main'}`;
}

export function sqliteCatalogFile(dir: string, workspaceId: string): string {
  return `${dir}/${checkedId(workspaceId)}.sqlite`;
}

/**
 * Statements that attach a workspace's DuckLake catalog as `alias`: an S3 secret scoped to the
 * workspace's data prefix when the lake is on S3, then the ATTACH itself (which creates the catalog
 * the first time).
 */
export function attachCatalogStatements(location: CatalogLocation, alias: string): string[] {
  const dataPath = workspaceDataPath(location);
  const statements: string[] = [];
  const { lake, catalog } = location;
  if (lake.kind === 's3') {
    const endpoint = lake.endpoint ? new URL(lake.endpoint) : undefined;
    const options = [
      'TYPE s3',
      `KEY_ID ${sqlString(lake.accessKeyId)}`,
      `SECRET ${sqlString(lake.secretAccessKey)}`,
      `REGION ${sqlString(lake.region)}`,
      `SCOPE ${sqlString(dataPath)}`,
      ...(endpoint ? [`ENDPOINT ${sqlString(endpoint.host)}`, `URL_STYLE 'path'`, `USE_SSL ${endpoint.protocol === 'https:' ? 'true' : 'false'}`] : []),
    ];
    statements.push(`CREATE OR REPLACE SECRET ${sqlIdentifier(`${alias}_s3`)} (${options.join(', ')})`);
  }
  const source = catalog.kind === 'postgres' ? `ducklake:postgres:${catalog.url}` : `ducklake:sqlite:${sqliteCatalogFile(catalog.dir, location.workspaceId)}`;
  // Every write lands in Parquet files (no rows inlined into the catalog), so sizes, scans and
  // maintenance all read from one place.
  const attachOptions = [`DATA_PATH ${sqlString(dataPath)}`, 'DATA_INLINING_ROW_LIMIT 0'];
  if (catalog.kind === 'postgres') attachOptions.push(`METADATA_SCHEMA ${sqlString(catalogSchemaName(location.workspaceId))}`);
  statements.push(`ATTACH IF NOT EXISTS ${sqlString(source)} AS ${sqlIdentifier(alias)} (${attachOptions.join(', ')})`);
  return statements;
}
