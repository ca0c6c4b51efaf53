import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlIdentifier } from '../sql-literals';
import { stagedText } from './column-types';
import type { PushPlan } from './plan-push';

/**
 * Appends the records as text into a connection-local temp table (one VARCHAR column per field, plus
 * the record's position), then casts them into a second temp table with the table's column types.
 * Casting before the lake transaction starts means bad values fail the push before anything is written.
 * With a key, only the last record of each key survives.
 */
export async function stageRecords(
  connection: DuckDBConnection,
  stagingName: string,
  plan: PushPlan,
  records: Record<string, unknown>[],
  primaryKey: string[],
): Promise<{ rowsTable: string; rowCount: number }> {
  const raw = `${stagingName}_raw`;
  const rows = `${stagingName}_rows`;
  const fields = plan.incoming;
  const rawColumns = fields.map((_, index) => `f${index} VARCHAR`).join(', ');
  await connection.run(`CREATE TEMP TABLE ${sqlIdentifier(raw)} (record_position INTEGER${rawColumns ? `, ${rawColumns}` : ''})`);

  const appender = await connection.createAppender(raw, 'main', 'temp');
  try {
    records.forEach((record, position) => {
      appender.appendInteger(position);
      for (const { field, column } of fields) {
        const text = stagedText(record[field], column.pushType);
        if (text === null) appender.appendNull();
        else appender.appendVarchar(text);
      }
      appender.endRow();
    });
    appender.flushSync();
  } finally {
    appender.closeSync();
  }

  const casts = fields.map(({ column }, index) => `CAST(f${index} AS ${column.type}) AS ${sqlIdentifier(column.name)}`);
  const names = fields.map(({ column }) => sqlIdentifier(column.name));
  const keyColumns = primaryKey.map((key) => sqlIdentifier(fields.find((entry) => entry.field === key)!.column.name));
  const lastPerKey = keyColumns.length ? ` QUALIFY row_number() OVER (PARTITION BY ${keyColumns.join(', ')} ORDER BY record_position DESC) = 1` : '';
  await connection.run(
    `CREATE TEMP TABLE ${sqlIdentifier(rows)} AS SELECT ${names.join(', ')} FROM (SELECT ${casts.join(', ')}, record_position FROM ${sqlIdentifier(raw)})${lastPerKey}`,
  );
  await connection.run(`DROP TABLE ${sqlIdentifier(raw)}`);
  const count = await connection.runAndReadAll(`SELECT count(*)::INTEGER FROM ${sqlIdentifier(rows)}`);
  return { rowsTable: rows, rowCount: Number(count.getRows()[0]?.[0] ?? 0) };
}
