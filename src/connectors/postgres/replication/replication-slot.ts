import type { EngineConnection } from '../../../engine/duckdb/engine-connection';
import { sqlString } from '../../../engine/sql-literals';
import type { ReplicationNames } from '../../connector';
import { SourceError } from '../../source-error';
import { pgIdentifier, pgLiteral, sourceRows, type SourceRelation } from '../catalog';
import { fromSource } from '../source-errors';

/** A table the publication holds, and the key its stream deduplicates on. */
export interface ReplicatedTable {
  relation: SourceRelation;
  key: string[];
}

/** A message of the log as the slot functions give it. */
export interface LogRow {
  lsn: string;
  data: Uint8Array;
}

const requirements =
  'logical replication needs wal_level=logical, a role with the REPLICATION attribute (or a superuser) that owns the tables, and a REPLICA IDENTITY that carries each key';

/**
 * Checks what logical replication needs of the source: wal_level=logical, a role allowed to replicate,
 * tables (not views) whose replica identity carries the stream's key, so that a delete says which row.
 */
export async function checkReplicable(connection: EngineConnection, tables: ReplicatedTable[]): Promise<void> {
  const [setting] = await sourceRows(
    connection,
    "SELECT current_setting('wal_level') AS wal_level, (SELECT rolreplication OR rolsuper FROM pg_roles WHERE rolname = current_user) AS allowed",
  );
  if (setting?.wal_level !== 'logical')
    throw new SourceError(
      'invalid',
      `The source's wal_level is ${String(setting?.wal_level)}: ${requirements} (ALTER SYSTEM SET wal_level = logical, then restart)`,
    );
  if (setting.allowed !== true) throw new SourceError('invalid', `The source's role may not replicate: ${requirements} (ALTER ROLE … REPLICATION)`);
  for (const { relation, key } of tables) {
    const [row] = await sourceRows(
      connection,
      `SELECT c.relkind::text AS kind, c.relreplident::text AS identity,
         coalesce((SELECT array_agg(a.attname::text ORDER BY a.attname) FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
                   WHERE i.indrelid = c.oid AND ((c.relreplident = 'd' AND i.indisprimary) OR (c.relreplident = 'i' AND i.indisreplident))), '{}') AS columns
       FROM pg_class c WHERE c.oid = ${pgLiteral(`${pgIdentifier(relation.schema)}.${pgIdentifier(relation.table)}`)}::regclass`,
    );
    const name = `${relation.schema}.${relation.table}`;
    if (row?.kind !== 'r' && row?.kind !== 'p') throw new SourceError('invalid', `${name} is not a table: only tables replicate (sync it by a cursor instead)`);
    if (row.identity === 'n')
      throw new SourceError(
        'invalid',
        `${name} has REPLICA IDENTITY NOTHING, so its deletes carry no key: ALTER TABLE ${name} REPLICA IDENTITY DEFAULT (or FULL)`,
      );
    if (row.identity === 'f') continue;
    const identity = (row.columns as string[]).map(String).sort();
    if (identity.join('\u0000') !== [...key].sort().join('\u0000')) {
      throw new SourceError(
        'invalid',
        `The replica identity of ${name} is (${identity.join(', ') || 'none'}), not the stream's key (${key.join(', ')}): make it so, or ALTER TABLE ${name} REPLICA IDENTITY FULL`,
      );
    }
  }
}

/**
 * The publication first (a slot decodes only changes made after the publication it names exists),
 * holding exactly the tables; then the slot, made anew when it is missing or its WAL was lost.
 * `admin` is the source attached for writing (a publication is DDL); the slot functions run anywhere.
 */
export async function ensureReplication(
  connection: EngineConnection,
  admin: EngineConnection,
  adminAlias: string,
  tables: ReplicatedTable[],
  names: ReplicationNames,
): Promise<{ created: boolean; lsn: string }> {
  const list = tables.map(({ relation }) => `${pgIdentifier(relation.schema)}.${pgIdentifier(relation.table)}`).join(', ');
  const [publication] = await sourceRows(connection, `SELECT count(*)::int AS n FROM pg_publication WHERE pubname = ${pgLiteral(names.publication)}`);
  const ddl =
    Number(publication?.n) > 0
      ? `ALTER PUBLICATION ${pgIdentifier(names.publication)} SET TABLE ${list}`
      : `CREATE PUBLICATION ${pgIdentifier(names.publication)} FOR TABLE ${list}`;
  await fromSource(() => admin.run(`CALL postgres_execute(${sqlString(adminAlias)}, ${sqlString(ddl)})`));
  const [slot] = await sourceRows(
    connection,
    `SELECT confirmed_flush_lsn::text AS lsn, wal_status FROM pg_replication_slots WHERE slot_name = ${pgLiteral(names.slot)}`,
  );
  if (slot && slot.wal_status !== 'lost') return { created: false, lsn: String(slot.lsn) };
  if (slot) await sourceRows(connection, `SELECT pg_drop_replication_slot(${pgLiteral(names.slot)})::text AS dropped`);
  const [created] = await sourceRows(connection, `SELECT lsn::text AS lsn FROM pg_create_logical_replication_slot(${pgLiteral(names.slot)}, 'pgoutput')`);
  return { created: true, lsn: String(created?.lsn) };
}

/** Drops the slot and the publication; either may be gone already. */
export async function dropReplication(connection: EngineConnection, admin: EngineConnection, adminAlias: string, names: ReplicationNames): Promise<void> {
  await sourceRows(
    connection,
    `SELECT pg_drop_replication_slot(slot_name)::text AS dropped FROM pg_replication_slots WHERE slot_name = ${pgLiteral(names.slot)}`,
  );
  await fromSource(() =>
    admin.run(`CALL postgres_execute(${sqlString(adminAlias)}, ${sqlString(`DROP PUBLICATION IF EXISTS ${pgIdentifier(names.publication)}`)})`),
  );
}

/**
 * Makes every transaction committed on the source so far readable from the slot, and gives the log's
 * position past them all. The slot functions decode only WAL already flushed, and a source that commits
 * asynchronously (`synchronous_commit=off`, for the server or a session) answers a commit before its WAL
 * is flushed: read then, the log looks shorter than it is. A transaction that writes one empty logical
 * message (no publication carries it) and commits synchronously flushes the WAL up to its own commit,
 * past every commit before it. Allowed in a read-only transaction, to anyone (EXECUTE is PUBLIC's).
 */
export async function flushLog(connection: EngineConnection, names: ReplicationNames): Promise<string> {
  const [row] = await sourceRows(
    connection,
    `SELECT pg_logical_emit_message(true, ${pgLiteral(names.slot)}, '')::text AS lsn
     FROM (SELECT set_config('synchronous_commit', 'on', true) OFFSET 0) AS synchronous`,
  );
  return String(row?.lsn);
}

/** An LSN's text (`16/B374D848`) as a number, to compare two. */
export function lsnValue(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  if (high === undefined || low === undefined) throw new SourceError('bad_response', `Not an LSN: ${lsn}`);
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/** The slot's next messages, whole transactions of at least `maxChanges` messages (when there are as many), without consuming them. */
export async function peekChanges(connection: EngineConnection, names: ReplicationNames, maxChanges: number): Promise<LogRow[]> {
  const rows = await sourceRows(
    connection,
    `SELECT lsn::text AS lsn, data FROM pg_logical_slot_peek_binary_changes(${pgLiteral(names.slot)}, NULL, ${Math.max(1, Math.trunc(maxChanges))},
       'proto_version', '1', 'publication_names', ${pgLiteral(names.publication)})`,
  );
  return rows.map((row) => ({ lsn: String(row.lsn), data: row.data as Uint8Array }));
}

/** Confirms the changes up to `lsn`: the slot lets their WAL go, and the next peek starts after them. */
export async function advanceSlot(connection: EngineConnection, names: ReplicationNames, lsn: string): Promise<void> {
  await sourceRows(connection, `SELECT pg_replication_slot_advance(${pgLiteral(names.slot)}, ${pgLiteral(lsn)}::pg_lsn)::text AS advanced`);
}
