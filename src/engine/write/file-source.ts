import type { EngineConnection } from '../duckdb/engine-connection';
import { duckdbErrorOf, type DuckDBErrorType } from '../duckdb/duckdb-error';
import { sqlIdentifier, sqlString } from '../sql-literals';
import { valueTypeOf, type ValueType } from './column-types';
import { checkColumnNames, type InferredColumn } from './infer-schema';
import type { PlannedColumn, WritePlan } from './plan-write';
import type { StagedRecords } from './stage-records';
import { RecordsRejected, type RecordIssue } from './write-errors';
import type { WriteSource } from './write-source';

/** The record formats of an upload, read by DuckDB's own readers. */
export type UploadFormat = 'ndjson' | 'csv' | 'parquet';

export interface UploadedFile {
  /** Where the file lies; the lake writer moves it into the instance's private folder to read it. */
  path: string;
  format: UploadFormat;
  /** NDJSON: the columns inferred while the file arrived (the same inference as a JSON push's). */
  columns?: InferredColumn[];
}

/**
 * The largest record a newline-delimited file may hold. DuckDB's JSON reader sizes its buffers by it:
 * at its own default of 16 MiB, inserting a 300 MB file grew the process by 238 MB, at 1 MiB by 142 MB
 * (a larger record can come as a JSON push or inside Parquet).
 */
export const maxRecordBytes = 1024 * 1024;

// What a value the reader cannot take raises: the input's fault, answered as such.
const inputErrors = new Set<DuckDBErrorType>(['Invalid Input', 'Conversion', 'Out of Range']);

interface SourceColumn extends InferredColumn {
  /** The column as the reader names it (a header or schema name; the field itself for NDJSON). */
  source: string;
  /** The reader's own type, for CSV and Parquet (cast to the column's type when staged). */
  readerType?: string;
}

/**
 * An uploaded file of records as a write's source. NDJSON comes with its columns inferred by the
 * push's own rules as it arrived; CSV columns and types are DuckDB's sniffer's (from a sample, all of
 * the file when a later value does not fit), Parquet's its schema's, both mapped onto the push's types.
 */
export function fileSource(path: string, file: UploadedFile): WriteSource {
  let known: SourceColumn[] = [];
  let wholeFile = false;
  return {
    async columns(connection, thorough) {
      wholeFile = thorough;
      known = await readColumns(connection, path, file, thorough);
      return known.map(({ name, type }) => ({ name, type }));
    },
    checkKey(primaryKey, columns) {
      const issues: RecordIssue[] = [];
      for (const key of primaryKey) {
        const column = columns.find((candidate) => candidate.name === key);
        if (!column) issues.push({ field: key, message: `Primary key column "${key}" must be present and not null`, type: 'missing' });
        else if (column.type === 'JSON') issues.push({ field: key, message: `Primary key column "${key}" must be a scalar`, type: 'value_error' });
      }
      if (issues.length > 0) throw new RecordsRejected(issues);
    },
    stage: (connection, _stagingDir, stagingName, plan, primaryKey) =>
      stageFile(connection, readerOf(path, file, known, plan, wholeFile), stagingName, plan, primaryKey),
    rejection(error, thorough) {
      const info = duckdbErrorOf(error);
      if (!info || !inputErrors.has(info.type)) return undefined;
      // CSV types come from a sample: a value beyond it that does not fit (reported as a conversion or as a
      // CSV error) is read again with the whole file's types before the file is refused.
      if (file.format === 'csv' && !thorough) return { readAgainThoroughly: true };
      return { rejected: new RecordsRejected([{ message: readerMessage(info.detail), type: 'value_error' }]) };
    },
  };
}

async function readColumns(connection: EngineConnection, path: string, file: UploadedFile, thorough: boolean): Promise<SourceColumn[]> {
  if (file.format === 'ndjson') return (file.columns ?? []).map((column) => ({ ...column, source: column.name }));
  try {
    const described = await connection.read(`DESCRIBE SELECT * FROM ${fileReader(path, file.format, thorough)}`);
    const columns = described.getRows().map(([name, type]) => ({ source: String(name), readerType: String(type) }));
    // DuckDB renames a header's duplicates (`a`, `A` → `a`, `A_1`): the names are checked as the file spells them.
    const names = file.format === 'csv' ? await csvHeader(connection, path, columns.length) : columns.map((column) => column.source);
    checkColumnNames(names);
    return columns.map((column, index) => ({ ...column, name: names[index]!, type: pushTypeOf(column.readerType) }));
  } catch (error) {
    const info = duckdbErrorOf(error);
    // Reading the schema or a sample reads nothing but the client's file: anything it refuses is the file's fault.
    if (info && (inputErrors.has(info.type) || info.type === 'IO' || info.type === 'Binder')) {
      throw new RecordsRejected([
        {
          message: `The body is not readable as ${file.format === 'csv' ? 'CSV with a header row' : 'Parquet'}: ${readerMessage(info.detail)}`,
          type: 'value_error',
        },
      ]);
    }
    throw error;
  }
}

async function csvHeader(connection: EngineConnection, path: string, width: number): Promise<string[]> {
  const row = (await connection.read(`SELECT * FROM system.main.read_csv(${sqlString(path)}, header = false, all_varchar = true) LIMIT 1`)).getRows()[0] ?? [];
  return Array.from({ length: width }, (_, index) => (row[index] === null || row[index] === undefined ? '' : String(row[index])));
}

/** A reader's type as the push's: nested values are JSON, everything else as an existing column's type reads. */
function pushTypeOf(readerType: string): ValueType {
  return /^(STRUCT|MAP|UNION)\(|\[\d*\]$/i.test(readerType) ? 'JSON' : valueTypeOf(readerType);
}

function fileReader(path: string, format: 'csv' | 'parquet', thorough: boolean): string {
  if (format === 'parquet') return `system.main.read_parquet(${sqlString(path)})`;
  return `system.main.read_csv(${sqlString(path)}, header = true${thorough ? ', sample_size = -1' : ''})`;
}

/** The rows of the file with the table's column names and types. */
function readerOf(path: string, file: UploadedFile, known: SourceColumn[], plan: WritePlan, wholeFile: boolean): string {
  if (file.format === 'ndjson') {
    const types = plan.incoming.map(({ field, column }) => `${sqlString(field)}: ${sqlString(column.type)}`);
    const renames = plan.incoming.map(({ field, column }) => `${sqlIdentifier(field)} AS ${sqlIdentifier(column.name)}`);
    return `SELECT ${renames.join(', ')} FROM system.main.read_json(${sqlString(path)}, format = 'newline_delimited', records = true, maximum_object_size = ${maxRecordBytes}, columns = {${types.join(', ')}})`;
  }
  const byField = new Map(known.map((column) => [column.name, column]));
  const casts = plan.incoming.map(({ field, column }) => castOf(byField.get(field)!, column));
  // The types the columns were read with: a sample's, until a later value did not fit (see rejection).
  return `SELECT ${casts.join(', ')} FROM ${fileReader(path, file.format, wholeFile)} AS src`;
}

function castOf(source: SourceColumn, column: PlannedColumn): string {
  const value = `CAST(src.${sqlIdentifier(source.source)} AS ${column.type})`;
  // Text the lake's catalog cannot keep in its statistics: refused, as a JSON push refuses it. A CSV
  // file's NUL bytes were refused as it arrived; Parquet's texts are compressed and checked here.
  const text = source.readerType === 'VARCHAR' || source.readerType === 'BLOB';
  const checked =
    text && column.type === 'VARCHAR'
      ? `CASE WHEN contains(${value}, chr(0)) THEN error(${sqlString(`Column "${source.name}" holds the NUL character (U+0000), which cannot be stored`)}) ELSE ${value} END`
      : value;
  return `${checked} AS ${sqlIdentifier(column.name)}`;
}

/**
 * Without a key the write's INSERT reads the file itself. With one, the rows are staged in a temp
 * table first, in file order, so that the last record of each key wins and a missing key is refused.
 */
async function stageFile(connection: EngineConnection, reader: string, stagingName: string, plan: WritePlan, primaryKey: string[]): Promise<StagedRecords> {
  if (primaryKey.length === 0) return { source: `(${reader})`, release: () => Promise.resolve() };
  const raw = sqlIdentifier(`${stagingName}_raw`);
  const rows = sqlIdentifier(`${stagingName}_rows`);
  const keyColumns = primaryKey.map((key) => plan.incoming.find((entry) => entry.field === key)!.column.name);
  const drop = async () => {
    await connection.run(`DROP TABLE IF EXISTS ${raw}`);
    await connection.run(`DROP TABLE IF EXISTS ${rows}`);
  };
  try {
    await connection.run(`CREATE TEMP TABLE ${raw} AS ${reader}`);
    const missing = await connection.read(
      // Row ids of a table made in the open transaction start far from 0: positions count from the first.
      `SELECT ${keyColumns.map((column) => `min(rowid) FILTER (WHERE ${sqlIdentifier(column)} IS NULL) - min(rowid)`).join(', ')} FROM ${raw}`,
    );
    const firstMissing = missing.getRows()[0] ?? [];
    const issues: RecordIssue[] = primaryKey.flatMap((key, index) =>
      firstMissing[index] === null || firstMissing[index] === undefined
        ? []
        : [{ record: Number(firstMissing[index]), field: key, message: `Primary key column "${key}" must be present and not null`, type: 'missing' }],
    );
    if (issues.length > 0) throw new RecordsRejected(issues);
    const keys = keyColumns.map(sqlIdentifier).join(', ');
    await connection.run(
      `CREATE TEMP TABLE ${rows} AS SELECT * EXCLUDE (rowid) FROM (SELECT rowid, * FROM ${raw}) QUALIFY row_number() OVER (PARTITION BY ${keys} ORDER BY rowid DESC) = 1`,
    );
    await connection.run(`DROP TABLE ${raw}`);
  } catch (error) {
    await drop().catch(() => {});
    throw error;
  }
  return { source: `temp.main.${rows}`, release: drop };
}

/** DuckDB's message without the statement it quotes (the server's file paths and SQL are no concern of the client's). */
function readerMessage(detail: string): string {
  const firstLines = detail.split('\n').filter((line) => line.trim() && !/^LINE \d+:/.test(line.trim()) && !/^\s*\^/.test(line));
  return firstLines
    .slice(0, 3)
    .join(' ')
    .replace(/"\/[^"]*"/g, 'the body')
    .replace(/'\/[^']*'/g, 'the body')
    .slice(0, 500);
}
