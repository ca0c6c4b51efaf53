import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineConnection } from '../duckdb/engine-connection';
import { sqlIdentifier, sqlString } from '../sql-literals';
import type { WritePlan } from './plan-write';

/**
 * Stages the records in a connection-local temp table with the table's column types, before the lake
 * transaction starts (so bad values fail the push before anything is written). The records go through
 * a JSON file in the instance's private temp folder, read by DuckDB's own JSON reader: much faster than
 * appending a million values one by one. With a key, only the last record of each key survives.
 */
export async function stageRecords(
  connection: EngineConnection,
  stagingDir: string,
  stagingName: string,
  plan: WritePlan,
  records: Record<string, unknown>[],
  primaryKey: string[],
): Promise<{ rowsTable: string; rowCount: number }> {
  const rows = `${stagingName}_rows`;
  const file = join(stagingDir, `${stagingName}.json`);
  const fields = plan.incoming;
  const keyed = primaryKey.length > 0;
  try {
    // Keyed pushes carry each record's position, so that the last duplicate of a key wins.
    await Bun.write(file, JSON.stringify(keyed ? records.map((record, position) => ({ p: position, r: record })) : records));
    const types = fields.map(({ field, column }) => `${sqlString(field)}: ${sqlString(column.type)}`);
    let select: string;
    if (keyed) {
      const struct = `STRUCT(${fields.map(({ field, column }) => `${sqlIdentifier(field)} ${column.type}`).join(', ')})`;
      const picks = fields.map(({ field, column }) => `r.${sqlIdentifier(field)} AS ${sqlIdentifier(column.name)}`);
      const keys = primaryKey.map((key) => `r.${sqlIdentifier(key)}`);
      select = `SELECT ${picks.join(', ')} FROM system.main.read_json(${sqlString(file)}, format = 'array', columns = {'p': 'BIGINT', 'r': ${sqlString(struct)}})
                QUALIFY row_number() OVER (PARTITION BY ${keys.join(', ')} ORDER BY p DESC) = 1`;
    } else {
      const renames = fields.map(({ field, column }) => `${sqlIdentifier(field)} AS ${sqlIdentifier(column.name)}`);
      select = `SELECT ${renames.join(', ')} FROM system.main.read_json(${sqlString(file)}, format = 'array', columns = {${types.join(', ')}})`;
    }
    await connection.run(`CREATE TEMP TABLE ${sqlIdentifier(rows)} AS ${select}`);
  } finally {
    rmSync(file, { force: true });
  }
  const count = await connection.read(`SELECT count(*)::INTEGER FROM ${sqlIdentifier(rows)}`);
  return { rowsTable: rows, rowCount: Number(count.getRows()[0]?.[0] ?? 0) };
}
