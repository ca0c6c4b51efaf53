import { AppError } from '../../errors/app-error';
import type { DuckDBErrorInfo } from '../duckdb/duckdb-error';
import type { EngineConnection } from '../duckdb/engine-connection';
import { timeTravelReach, type TableReach } from '../tables/table-lives';
import type { TableName } from '../write/table-name';

/** A table a statement reads, and whether it reads it as of a time (`AT (…)`, `FOR SYSTEM_TIME AS OF`). */
interface ReadTable extends TableName {
  historical: boolean;
}

export interface TimeTravelContext {
  /** Every lake table the statement reads, live or as of a time. */
  tables: readonly ReadTable[];
  /** How far back the catalog lets time travel reach for these names: read only for an error that concerns them. */
  reach: (names: readonly TableName[]) => Promise<TableReach[]>;
}

/** The context for a statement's errors on `connection`: nothing is read unless an error concerns time travel. */
export function timeTravelContext(connection: EngineConnection, metadata: string, tables: readonly ReadTable[]): TimeTravelContext {
  return { tables, reach: (names) => timeTravelReach(connection, metadata, names) };
}

/**
 * SNAPSHOT_NOT_FOUND for an error of a statement that reads a table as of a time at which no snapshot
 * holds it, undefined for any other error. DuckLake says so in three ways: no snapshot at all is that
 * old ("No snapshot found at"); the snapshot of that time has no such table or schema yet, or no
 * more (a Catalog error naming it; the statement's tables were all checked to exist, now or once,
 * before it ran); the snapshot names files the table's drop deleted (a missing file, for a name
 * whose earlier life was dropped). The hint says when each table can be read.
 */
export async function timeTravelError(info: DuckDBErrorInfo, context: TimeTravelContext | undefined): Promise<AppError | undefined> {
  const historical = (context?.tables ?? []).filter((table) => table.historical);
  if (!context || historical.length === 0) return undefined;
  const concerned = concernedTables(info, context.tables, historical);
  if (concerned.length === 0) return undefined;
  const reach = await context.reach(concerned).catch(() => undefined);
  if (info.type === 'IO' || info.type === 'HTTP') {
    const deleted = (reach ?? []).filter((table) => table.earliest === undefined || table.earlierLives);
    if (deleted.length === 0) return undefined;
    return snapshotNotFound(deleted, deleted);
  }
  return snapshotNotFound(concerned, reach);
}

function concernedTables(info: DuckDBErrorInfo, all: readonly ReadTable[], historical: readonly ReadTable[]): TableName[] {
  if (info.type === 'Invalid Input' && /^No snapshot found at/i.test(info.detail)) return distinct(historical);
  if ((info.type === 'IO' || info.type === 'HTTP') && missingFile.test(info.detail)) return distinct(historical);
  if (info.type !== 'Catalog') return [];
  const missing = missingTable.exec(info.detail);
  if (!missing) return [];
  const parts = missing[1]!.toLowerCase().split('.');
  const named = (table: ReadTable) => table.table.toLowerCase() === parts.at(-1) && (parts.length === 1 || table.schema.toLowerCase() === parts.at(-2));
  // A name the statement also reads live is missing as of a time only if DuckLake says so.
  const asOfTime = / at (timestamp|version) /i.test(info.detail) || !all.some((table) => !table.historical && named(table));
  return asOfTime ? distinct(historical.filter(named)) : [];
}

/** DuckLake's words for a table missing from a snapshot: `Table with name t does not exist at timestamp …!`, `… "s.t" does not exist because schema "s" does not exist.` */
const missingTable = /^Table with name "?([^"\s!]+)"? does not exist/i;
/** A file the catalog lists that the storage does not have, on a local disk or S3. */
const missingFile = /No such file or directory|HTTP 404|NoSuchKey/i;

function snapshotNotFound(tables: readonly TableName[], reach: readonly TableReach[] | undefined): AppError {
  const names = tables.map(qualified);
  return new AppError('SNAPSHOT_NOT_FOUND', `No snapshot of ${names.join(', ')} exists at the requested time`, {
    hint: reach ? reachHint(reach) : 'Ask for a later time.',
  });
}

/** When each table can be read: times to the microsecond, which read that snapshot when given back. */
function reachHint(reach: readonly TableReach[]): string {
  const readable = reach.filter((table) => table.earliest !== undefined);
  const dropped = reach.filter((table) => table.earliest === undefined).map((table) => `${qualified(table)} was dropped, and its data deleted with it.`);
  const times =
    readable.length === 1 && reach.length === 1
      ? [`The earliest available time is ${readable[0]!.earliest}.`]
      : readable.length > 0
        ? [`The earliest available times are ${readable.map((table) => `${table.earliest} for ${qualified(table)}`).join(', ')}.`]
        : [];
  return [...times, ...dropped].join(' ') || 'Ask for a later time.';
}

function qualified(table: TableName): string {
  return `${table.schema}.${table.table}`;
}

function distinct(tables: readonly TableName[]): TableName[] {
  const byName = new Map(tables.map((table) => [qualified(table).toLowerCase(), { schema: table.schema, table: table.table }]));
  return [...byName.values()];
}
