import type { EngineConnection } from '../../../engine/duckdb/engine-connection';
import { sqlIdentifier, sqlString } from '../../../engine/sql-literals';
import type { StreamChanges } from '../../connector';
import { SourceError } from '../../source-error';
import { pgIdentifier, pgLiteral, sourceAlias, streamName, type SourceColumn, type SourceRelation } from '../catalog';
import { decodeMessage, type LogRelation, type LogValue } from './pgoutput';
import type { LogRow } from './replication-slot';

/** A stream the log feeds: its table, its key, and the key columns' source types (for literals). */
export interface LoggedStream {
  name: string;
  relation: SourceRelation;
  key: string[];
  keyTypes: SourceColumn[];
}

/** What the log says of one stream in a batch: the keys that changed (the last change's time each), and whether the table was emptied. */
interface KeyChanges {
  keys: Map<string, { values: string[]; at: Date }>;
  truncated: boolean;
  changes: number;
}

const deletedAt = '_deleted_at';

/**
 * Reads a batch of log messages into the keys each stream's changes touched. Only keys are taken from
 * the log: the rows are then read back from the source by key (see stageChanges), in the types a full
 * read gives them, TOASTed values included, and a key the source no longer holds was deleted. Applying
 * a batch is thus the same however often it is applied, and the lake ends as the source was then.
 */
export function keyChanges(rows: LogRow[], streams: LoggedStream[]): { byStream: Map<string, KeyChanges>; endLsn: string | undefined } {
  const relations = new Map<number, LogRelation>();
  const byStream = new Map<string, KeyChanges>();
  let commitTime = new Date();
  let endLsn: string | undefined;
  const streamOf = (relationId: number) => {
    const relation = relations.get(relationId);
    if (!relation) throw new SourceError('bad_response', `pgoutput: a change of relation ${relationId} before its description`);
    const stream = streams.find((candidate) => candidate.name === streamName(relation.schema, relation.table));
    if (!stream) return undefined;
    let changes = byStream.get(stream.name);
    if (!changes) byStream.set(stream.name, (changes = { keys: new Map(), truncated: false, changes: 0 }));
    return { stream, relation, changes };
  };
  const touch = (relationId: number, tuple: LogValue[]) => {
    const target = streamOf(relationId);
    if (!target) return;
    const values = target.stream.key.map((column) => {
      const index = target.relation.columns.findIndex((candidate) => candidate.name === column);
      const value = index < 0 ? null : tuple[index];
      if (typeof value !== 'string')
        throw new SourceError(
          'invalid',
          `A change of ${target.relation.schema}.${target.relation.table} carries no value for its key column ${column}: check its REPLICA IDENTITY`,
        );
      return value;
    });
    target.changes.changes += 1;
    target.changes.keys.set(JSON.stringify(values), { values, at: commitTime });
  };
  for (const row of rows) {
    const change = decodeMessage(row.data);
    switch (change.kind) {
      case 'begin':
        commitTime = change.commitTime;
        break;
      case 'commit':
        endLsn = row.lsn;
        break;
      case 'relation':
        relations.set(change.relation.id, change.relation);
        break;
      case 'insert':
        touch(change.relationId, change.row);
        break;
      case 'update':
        if (change.old) touch(change.relationId, change.old);
        touch(change.relationId, change.row);
        break;
      case 'delete':
        touch(change.relationId, change.old);
        break;
      case 'truncate':
        for (const relationId of change.relationIds) {
          const target = streamOf(relationId);
          if (!target) continue;
          // Every row goes; the keys changed before are gone with them.
          target.changes.truncated = true;
          target.changes.keys.clear();
          target.changes.changes += 1;
        }
        break;
      default:
        break;
    }
  }
  return { byStream, endLsn };
}

/**
 * Reads back from the source, in one query, the rows of the keys that changed (present or not), into a
 * temp table of the sync instance; the stream's upserts are the present ones, its deletions the others.
 */
export async function stageChanges(
  connection: EngineConnection,
  stream: LoggedStream,
  changes: KeyChanges,
): Promise<{ part: StreamChanges; temp: string | undefined }> {
  const empty = { stream: stream.name, truncated: changes.truncated, changes: changes.changes, bytesRead: 0 };
  if (changes.keys.size === 0) return { part: empty, temp: undefined };
  const keyNames = stream.key.map((_, index) => `__oxbow_k${index}`);
  const literal = (value: string, index: number) => `${pgLiteral(value)}::${stream.keyTypes[index]!.sourceType}`;
  const values = [...changes.keys.values()].map(({ values: key, at }) => `(${pgLiteral(at.toISOString())}::timestamptz, ${key.map(literal).join(', ')})`);
  const table = `${pgIdentifier(stream.relation.schema)}.${pgIdentifier(stream.relation.table)}`;
  const join = stream.key.map((column, index) => `t.${pgIdentifier(column)} = k.${keyNames[index]}`).join(' AND ');
  const query = `SELECT k.__oxbow_at, ${keyNames.map((name) => `k.${name}`).join(', ')}, pg_column_size(t.*) AS __oxbow_size, t.* FROM (VALUES ${values.join(', ')}) AS k(__oxbow_at, ${keyNames.join(', ')})
    LEFT JOIN (SELECT true AS __oxbow_present, * FROM ${table}) AS t ON ${join}`;
  const temp = `changes_${Bun.randomUUIDv7().replaceAll('-', '')}`;
  await connection.run(`CREATE TEMP TABLE ${sqlIdentifier(temp)} AS SELECT * FROM postgres_query(${sqlString(sourceAlias)}, ${sqlString(query)})`);
  const [bytes] = (await connection.read(`SELECT coalesce(sum(__oxbow_size), 0) FROM temp.main.${sqlIdentifier(temp)}`)).getRows();
  const staged = `temp.main.${sqlIdentifier(temp)}`;
  const upserts = `SELECT * EXCLUDE (__oxbow_at, __oxbow_size, __oxbow_present, ${keyNames.join(', ')}) FROM ${staged} WHERE __oxbow_present`;
  const deleted = `SELECT ${keyNames.map((name, index) => `${name} AS ${sqlIdentifier(stream.key[index]!)}`).join(', ')}, __oxbow_at AS ${sqlIdentifier(deletedAt)} FROM ${staged} WHERE __oxbow_present IS NULL`;
  return { part: { ...empty, upserts, deleted, bytesRead: Number(bytes?.[0] ?? 0) }, temp };
}
