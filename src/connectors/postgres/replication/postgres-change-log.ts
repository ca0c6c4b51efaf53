import type { EngineConnection } from '../../../engine/duckdb/engine-connection';
import { sqlIdentifier } from '../../../engine/sql-literals';
import type { ChangeBatch, ChangeLog, ConnectorContext, StreamSelection } from '../../connector';
import { SourceError } from '../../source-error';
import { sourceColumns, sourceRelations } from '../catalog';
import { fromSource } from '../source-errors';
import { keyChanges, stageChanges, type LoggedStream } from './change-batches';
import { advanceSlot, checkReplicable, dropReplication, ensureReplication, flushLog, lsnValue, peekChanges, type ReplicatedTable } from './replication-slot';

interface ReplicatingSpec {
  schemas: string[];
  replication_method: string;
}

/** How the change log reaches the source: attached for reading (`source`), and for writing under `adminAlias` (its publication). */
export interface SourceAccess<Spec> {
  source(context: ConnectorContext<Spec>): Promise<EngineConnection>;
  admin(context: ConnectorContext<Spec>): Promise<EngineConnection>;
  adminAlias: string;
}

/**
 * Postgres' logical replication as a change log, read through the slot functions
 * (`pg_logical_slot_peek_binary_changes` with the pgoutput plugin, then `pg_replication_slot_advance`)
 * on the same attached, address-checked connection every read of the source uses: no replication
 * connection to open, and a batch is confirmed only when the next one is asked for, after the caller
 * committed it to the lake. A read first flushes the source's WAL (see flushLog), so that it holds
 * every transaction committed before it began, however the source commits. Streams in
 * `incremental_append_deduped` without a cursor field of a connection whose `replication_method` is
 * `logical` read from it.
 */
export function postgresChangeLog<Spec extends ReplicatingSpec>(access: SourceAccess<Spec>): ChangeLog<Spec> {
  const replicated = async (connection: EngineConnection, context: ConnectorContext<Spec>, streams: StreamSelection[]): Promise<LoggedStream[]> => {
    const relations = await sourceRelations(connection, context.spec.schemas);
    return Promise.all(
      streams.map(async (stream) => {
        const relation = relations.find((candidate) => candidate.stream === stream.name);
        if (!relation) throw new SourceError('not_found', `The source has no table for stream ${stream.name}`);
        const columns = await sourceColumns(connection, relation);
        const keyTypes = stream.primaryKey.map((name) => {
          const column = columns.find((candidate) => candidate.name === name);
          if (!column) throw new SourceError('invalid', `Stream ${stream.name} has no key column ${name}`);
          return column;
        });
        return { name: stream.name, relation, key: stream.primaryKey, keyTypes };
      }),
    );
  };

  return {
    reads: (spec, stream) => spec.replication_method === 'logical' && stream.syncMode === 'incremental_append_deduped' && stream.cursorField === undefined,

    async prepare(context, streams, names) {
      const connection = await access.source(context);
      return fromSource(async () => {
        const tables: ReplicatedTable[] = (await replicated(connection, context, streams)).map((stream) => ({ relation: stream.relation, key: stream.key }));
        await checkReplicable(connection, tables);
        return ensureReplication(connection, await access.admin(context), access.adminAlias, tables, names);
      });
    },

    async *changes(context, request) {
      const connection = await access.source(context);
      const streams = await fromSource(() => replicated(connection, context, request.streams));
      // Every transaction committed before now ends before this position, and is readable.
      const committed = lsnValue(await fromSource(() => flushLog(connection, request.names)));
      let confirm: string | undefined;
      for (;;) {
        if (confirm) await fromSource(() => advanceSlot(connection, request.names, confirm!));
        request.signal?.throwIfAborted();
        const rows = await fromSource(() => peekChanges(connection, request.names, request.maxChanges));
        const { byStream, endLsn } = keyChanges(rows, streams);
        if (endLsn === undefined) return;
        const temps: string[] = [];
        const batch: ChangeBatch = {
          streams: [],
          endLsn,
          release: async () => {
            for (const temp of temps.splice(0)) await connection.run(`DROP TABLE IF EXISTS temp.main.${sqlIdentifier(temp)}`).catch(() => {});
          },
        };
        try {
          for (const stream of streams) {
            const changes = byStream.get(stream.name);
            if (!changes) continue;
            const { part, temp } = await fromSource(() => stageChanges(connection, stream, changes));
            if (temp) temps.push(temp);
            batch.streams.push(part);
          }
          yield batch;
        } finally {
          await batch.release();
        }
        confirm = endLsn;
        // Short of a full batch, the log had nothing more when it was read; past `committed`, this read
        // holds every transaction committed before it began, and those after are the next sync's.
        if (rows.length < request.maxChanges || lsnValue(endLsn) >= committed) {
          await fromSource(() => advanceSlot(connection, request.names, confirm!));
          return;
        }
      }
    },

    async drop(context, names) {
      const connection = await access.source(context);
      await fromSource(async () => dropReplication(connection, await access.admin(context), access.adminAlias, names));
    },
  };
}
