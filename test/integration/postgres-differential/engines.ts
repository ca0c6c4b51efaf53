import postgres from 'postgres';
import { createVerifiedUser } from '../../support/accounts';
import { createDatabase } from '../../support/backends';
import { columnsOf, pushOk } from '../../support/lake';
import { startTestApp, type TestApp } from '../../support/test-app';
import { createWorkspace } from '../../support/workspaces';
import { RowCollector } from '../../../src/engine/sql/result-sink';
import { AppError } from '../../../src/errors/app-error';
import { canonicalOxbow } from '../postgres-corpus/oxbow-values';
import { canonicalPostgres } from '../postgres-corpus/postgres-values';
import type { Canonical } from '../postgres-corpus/canonical';
import { postgresTypes, tables } from './data';

/** What one engine answered: a result, or an error with its SQLSTATE. */
export type Outcome =
  | { kind: 'rows'; names: string[]; kinds: ValueKind[]; rows: Canonical[][] }
  | { kind: 'error'; sqlstate: string | undefined; message: string };

/** What a JSON client sees of a column's type: the kind of its values. */
export type ValueKind = 'number' | 'text' | 'boolean' | 'json' | 'time' | 'array' | 'other';

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * Postgres 15 with the tables created with the types the push infers, in a UTF-8 database whose
 * character classes are Unicode's (C.UTF-8: upper('é') is 'É', as on analysts' servers, which run
 * a UTF-8 locale) and whose sort order is by code point, as DuckDB's.
 */
export async function openPostgres(): Promise<{ run(sql: string): Promise<Outcome>; close(): Promise<void> }> {
  const database = await createDatabase({ locale: 'C.UTF-8' });
  // The session's settings go with every connection: a client is replaced after an error (below).
  const connect = () => postgres(database.url, { max: 1, onnotice: () => {}, connection: { TimeZone: 'UTC', IntervalStyle: 'iso_8601' } });
  let sql = connect();
  await sql.unsafe('CREATE SCHEMA shop');
  for (const table of tables) {
    const names = Object.keys(table.columns);
    await sql.unsafe(`CREATE TABLE ${table.name} (${names.map((name) => `${name} ${postgresTypes[table.columns[name]!]}`).join(', ')})`);
    const rows = table.records.map((record) => `(${names.map((name) => literal(record[name])).join(', ')})`);
    await sql.unsafe(`INSERT INTO ${table.name} VALUES ${rows.join(', ')}`);
  }
  return {
    async run(text) {
      try {
        const result = await sql.unsafe(text).raw();
        const oids = result.columns.map((column) => column.type);
        const rows = result.map((row) => row.map((cell, i) => canonicalPostgres(cell === null ? null : Buffer.from(cell).toString('utf8'), oids[i]!)));
        return { kind: 'rows', names: result.columns.map((column) => column.name), kinds: oids.map(postgresKind), rows };
      } catch (error) {
        // A statement that fails after sending rows (an overflow at the sixth row) leaves them in the
        // client, which hands them to the next statement's result: the next one gets a new client.
        await sql.end();
        sql = connect();
        const failure = error as { code?: string; message?: string };
        return { kind: 'error', sqlstate: failure.code, message: failure.message ?? String(error) };
      }
    },
    async close() {
      await sql.end();
      await database.drop();
    },
  };
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'object') return `${quote(JSON.stringify(value))}::jsonb`;
  if (typeof value === 'string') return quote(value);
  return String(value);
}

/** The service with a workspace whose lake holds the tables, pushed as JSON records. */
export async function openOxbow(): Promise<{ run(sql: string): Promise<Outcome>; close(): Promise<void> }> {
  const app: TestApp = await startTestApp('local');
  const user = await createVerifiedUser(app, 'differential');
  const { id: workspaceId } = await createWorkspace(app, user, 'differential');
  for (const table of tables) {
    await pushOk(app, workspaceId, user, { table: table.name, records: table.records });
    const inferred = await columnsOf(app, workspaceId, table.name, user);
    for (const [name, type] of Object.entries(table.columns)) {
      if (inferred[name] !== (type === 'TIMESTAMPTZ' ? 'TIMESTAMP WITH TIME ZONE' : type))
        throw new Error(`${table.name}.${name} was pushed as ${inferred[name]}, the suite expects ${type}`);
    }
  }
  return {
    async run(text) {
      const collector = new RowCollector();
      try {
        const result = await app.services.engine.queries.run(workspaceId, text, collector, { timeoutMs: 30_000, maxRows: 100_000, maxBytes: 1e9 });
        const rows = collector.collected.map((row) => row.map((value, i) => canonicalOxbow(value, result.columns[i]!.type)));
        return { kind: 'rows', names: result.columns.map((column) => column.name), kinds: result.columns.map((column) => oxbowKind(column.type)), rows };
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return { kind: 'error', sqlstate: error.sqlstate, message: `${error.code}: ${error.message}` };
      }
    },
    close: () => app.stop(),
  };
}

const postgresKinds: Readonly<Record<number, ValueKind>> = {
  20: 'number',
  21: 'number',
  23: 'number',
  700: 'number',
  701: 'number',
  1700: 'number',
  26: 'number',
  16: 'boolean',
  114: 'json',
  3802: 'json',
  1082: 'time',
  1083: 'time',
  1114: 'time',
  1184: 'time',
  1186: 'time',
  1266: 'time',
  // A record (2249) reaches a client as its text.
  25: 'text',
  1043: 'text',
  1042: 'text',
  19: 'text',
  705: 'text',
  2206: 'text',
  2249: 'text',
};

function postgresKind(oid: number): ValueKind {
  if ([1000, 1005, 1007, 1016, 1021, 1022, 1231, 1009, 1015, 1014, 1182, 1115, 1185, 1187, 199, 3807].includes(oid)) return 'array';
  return postgresKinds[oid] ?? 'other';
}

function oxbowKind(type: string): ValueKind {
  if (type.endsWith('[]')) return 'array';
  const base = type.replace(/\(.*$/s, '');
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|DECIMAL)$/.test(base)) return 'number';
  if (base === 'BOOLEAN') return 'boolean';
  if (base === 'JSON') return 'json';
  if (/^(DATE|TIME|TIMESTAMP|INTERVAL)/.test(base)) return 'time';
  if (base === 'VARCHAR') return 'text';
  return 'other';
}
