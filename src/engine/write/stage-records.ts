import { rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EngineConnection } from '../duckdb/engine-connection';
import { sqlIdentifier, sqlString } from '../sql-literals';
import type { WritePlan } from './plan-write';

export interface StagedRecords {
  /** What the write reads its rows from, with the table's column names and types. */
  source: string;
  /** Removes what the staging left (its file, its temp table). */
  release(): Promise<void>;
  /** For records of several writes staged together (see `members`): the rows each one writes, as it would alone. */
  memberRows?: number[];
}

/**
 * Stages the records for a write. They go through a JSON file in the instance's private temp folder,
 * read by DuckDB's own JSON reader with the table's column types: much faster than appending a million
 * values one by one.
 *
 * Without a key the write's INSERT reads the file itself, inside the write's transaction: a value the
 * reader refuses fails the transaction, which leaves nothing behind. Reading the file once instead of
 * into a temp table first took a third off a 100,000-record push's staging (see bench/README.md). The
 * file is the records' own JSON text when the caller has it and may use it (see recordsSource), or a
 * file for each of its parts, which the reader reads side by side (see RecordsText).
 *
 * With a key the rows are staged in a connection-local temp table first, keeping only the last record
 * of each key: the upsert's delete and its insert both read them.
 *
 * `members`, when given, splits the records into consecutive writes of that many records each, staged
 * together (a group of pushes): each one's rows are counted as if it were written alone.
 */
export async function stageRecords(
  connection: EngineConnection,
  stagingDir: string,
  stagingName: string,
  plan: WritePlan,
  records: Record<string, unknown>[] | Uint8Array[],
  primaryKey: string[],
  members?: number[],
): Promise<StagedRecords> {
  const file = join(stagingDir, `${stagingName}.json`);
  const removeFile = () => rmSync(file, { force: true });
  const fields = plan.incoming;
  if (primaryKey.length === 0) {
    // Texts (consecutive arrays) go in a file each, which DuckDB's reader reads side by side.
    const texts = isTexts(records) ? records : [JSON.stringify(records)];
    const files = texts.map((_, index) => (index === 0 ? file : join(stagingDir, `${stagingName}_${index}.json`)));
    const removeFiles = async () => {
      for (const path of files) rmSync(path, { force: true });
    };
    // Written by threads of the runtime's pool: Bun.write kept the event loop's thread for a third
    // of the time it took (8 of 25 ms for 18 MB), node's writeFile not at all.
    await Promise.all(texts.map((text, index) => writeFile(files[index]!, text))).catch(async (error: unknown) => {
      await removeFiles();
      throw error;
    });
    const types = fields.map(({ field, column }) => `${sqlString(field)}: ${sqlString(column.type)}`);
    const renames = fields.map(({ field, column }) => `${sqlIdentifier(field)} AS ${sqlIdentifier(column.name)}`);
    const paths = `[${files.map(sqlString).join(', ')}]`;
    const source = `(SELECT ${renames.join(', ')} FROM system.main.read_json(${paths}, format = 'array', columns = {${types.join(', ')}}))`;
    return { source, release: removeFiles, ...(members ? { memberRows: members } : {}) };
  }

  if (isTexts(records)) throw new Error('records staged for an upsert are written from their values');
  const rows = `${stagingName}_rows`;
  let memberRows: number[] | undefined;
  try {
    // Each record carries its position, so that the last duplicate of a key wins (and its write's, when several share the file).
    const memberOf = members ? memberIndexes(members) : undefined;
    await writeFile(file, JSON.stringify(records.map((record, position) => ({ p: position, m: memberOf?.[position] ?? 0, r: record }))));
    const struct = `STRUCT(${fields.map(({ field, column }) => `${sqlIdentifier(field)} ${column.type}`).join(', ')})`;
    const picks = fields.map(({ field, column }) => `r.${sqlIdentifier(field)} AS ${sqlIdentifier(column.name)}`);
    const keys = primaryKey.map((key) => `r.${sqlIdentifier(key)}`);
    const staged = `system.main.read_json(${sqlString(file)}, format = 'array', columns = {'p': 'BIGINT', 'm': 'BIGINT', 'r': ${sqlString(struct)}})`;
    await connection.run(
      `CREATE TEMP TABLE ${sqlIdentifier(rows)} AS
       SELECT ${picks.join(', ')} FROM ${staged}
       QUALIFY row_number() OVER (PARTITION BY ${keys.join(', ')} ORDER BY p DESC) = 1`,
    );
    if (members) memberRows = await distinctKeysPerMember(connection, staged, keys, members.length);
  } finally {
    removeFile();
  }
  return {
    source: `temp.main.${sqlIdentifier(rows)}`,
    release: () => connection.run(`DROP TABLE IF EXISTS ${sqlIdentifier(rows)}`),
    ...(memberRows ? { memberRows } : {}),
  };
}

function memberIndexes(members: number[]): number[] {
  return members.flatMap((count, member) => Array<number>(count).fill(member));
}

/** The rows each write of a group would upsert alone: its distinct keys, as the staged types compare them. */
async function distinctKeysPerMember(connection: EngineConnection, staged: string, keys: string[], members: number): Promise<number[]> {
  const counts = await connection.read(`SELECT m, count(*) FROM (SELECT DISTINCT m, ${keys.join(', ')} FROM ${staged}) GROUP BY m`);
  const rows = Array<number>(members).fill(0);
  for (const [member, count] of counts.getRows()) rows[Number(member)] = Number(count);
  return rows;
}

function isTexts(records: Record<string, unknown>[] | Uint8Array[]): records is Uint8Array[] {
  return records.length > 0 && records[0] instanceof Uint8Array;
}
