import type { EngineConnection } from '../duckdb/engine-connection';
import { isCommitConflict } from '../duckdb/duckdb-error';
import type { StatementWatch } from '../duckdb/pending-statement';
import { lakeAlias } from '../catalog-names';
import { sqlIdentifier, sqlString } from '../sql-literals';
import { catalogColumns, type CatalogColumn } from '../tables/catalog-columns';
import type { TableName } from '../write/table-name';
import { conversion, normalizeType, promotesInPlace, widenType } from './type-widening';
import { applyDeletions } from '../write/apply-deletions';

/**
 * A column a write added to a table, a type it widened; a full refresh that replaces a table may also
 * change a column's type otherwise (retyped) or leave one out (dropped).
 */
export interface SchemaChange {
  table: string;
  column: string;
  change: 'added' | 'widened' | 'retyped' | 'dropped';
  from?: string;
  to?: string;
}

export interface RelationWrite {
  table: TableName;
  /** A SELECT over what the instance has attached, written by the service (never a tenant's SQL); absent: no rows to write (deletions only). */
  select?: string;
  /** With a key, the batch replaces the table's rows of the same key; among the batch's own duplicates the last by `latestFirst` wins. */
  upsert?: { key: string[]; latestFirst?: string[] };
  /** The batch is the table's whole new content: the table is created anew in the same snapshot, replacing the one there was. */
  replace?: boolean;
  /** For the snapshot's commit message and, as JSON, its commit information (see findCommit), which may say the write's schema changes. */
  message: string;
  commitInfo: Record<string, unknown> | ((changes: SchemaChange[]) => Record<string, unknown>);
  watch?: StatementWatch;
  /** More work that commits with the batch, run in its transaction after the rows are written. */
  alsoInTransaction?(connection: EngineConnection): Promise<void>;
  /** Rows deleted at the source: all of them before the batch's rows (a table emptied), or those of `deleted` keys after. */
  deletions?: { all: boolean; deleted?: string; mark: boolean; key: string[] };
}

export interface RelationWritten {
  rowsWritten: number;
  rowsDeleted: number;
  createdTable: boolean;
  schemaChanges: SchemaChange[];
}

interface Column {
  name: string;
  type: string;
}

const maxAttempts = 5;

/**
 * Writes a batch read from a source into a lake table as exactly one DuckLake snapshot: the table's
 * creation, new columns, widened types, the replacement of existing keys and the rows themselves commit
 * together with the commit information, or nothing does. A batch with a key is staged first (its rows
 * are read twice); one without is read straight into the table. A batch that replaces the table
 * creates it anew with the batch's columns (its changes say how they differ from the old table's). A
 * commit that loses a race with another writer (or finds an embedded catalog locked) is tried again
 * from a fresh look at the table.
 */
export async function writeRelation(connection: EngineConnection, write: RelationWrite): Promise<RelationWritten> {
  const staged = write.upsert && write.select !== undefined ? await stageKeyed(connection, write) : undefined;
  try {
    const incoming =
      write.select === undefined ? [] : await describe(connection, staged ? `SELECT * FROM temp.main.${sqlIdentifier(staged)}` : write.select, write.watch);
    for (let attempt = 1; ; attempt++) {
      try {
        await connection.run('BEGIN TRANSACTION');
        // Read inside the transaction: DuckLake loads its catalog once per transaction.
        const existing = await catalogColumns(connection, write.table);
        const plan = write.replace ? replacementPlan(existing, incoming, qualified(write.table)) : planColumns(existing, incoming, qualified(write.table));
        const statements = write.replace
          ? replacementStatements(write.table, plan)
          : write.select === undefined
            ? []
            : ddlStatements(write.table, existing, plan);
        for (const statement of statements) await connection.run(statement, undefined, write.watch);
        let rowsDeleted =
          existing && write.deletions?.all
            ? await applyDeletions(connection, qualifiedSql(write.table), write.deletions.key, existing, { source: { all: true }, mark: write.deletions.mark })
            : 0;
        let rowsWritten = 0;
        if (write.select !== undefined) {
          const source = staged ? `temp.main.${sqlIdentifier(staged)}` : `(\n${write.select}\n)`;
          if (write.upsert && existing && !write.replace) await connection.run(deleteReplaced(write.table, write.upsert.key, source), undefined, write.watch);
          const inserted = await connection.read(insertStatement(write.table, plan.columns, incoming, source), undefined, write.watch);
          rowsWritten = Number(inserted.scalar() ?? 0);
        }
        const columns = write.deletions?.deleted && (existing || write.select !== undefined) ? await catalogColumns(connection, write.table) : undefined;
        if (columns)
          rowsDeleted += await applyDeletions(connection, qualifiedSql(write.table), write.deletions!.key, columns, {
            source: { relation: write.deletions!.deleted! },
            mark: write.deletions!.mark,
          });
        await write.alsoInTransaction?.(connection);
        // Set last, so that it can say how many rows the snapshot holds (a resumed sync counts from it).
        const commitInfo = typeof write.commitInfo === 'function' ? write.commitInfo(plan.changes) : write.commitInfo;
        const info = JSON.stringify({ ...commitInfo, records_written: rowsWritten, records_deleted: rowsDeleted });
        await connection.run(
          `CALL ducklake_set_commit_message(${sqlString(lakeAlias)}, 'oxbow', ${sqlString(write.message)}, extra_info => ${sqlString(info)})`,
        );
        await connection.run('COMMIT', undefined, write.watch);
        return {
          rowsWritten,
          rowsDeleted,
          createdTable: write.replace === true || (existing === undefined && write.select !== undefined),
          schemaChanges: plan.changes,
        };
      } catch (error) {
        await connection.rollback().catch(() => {});
        if (!isCommitConflict(error) || attempt === maxAttempts) throw error;
        await Bun.sleep(25 * 2 ** attempt + Math.random() * 25);
      }
    }
  } finally {
    if (staged) await connection.run(`DROP TABLE IF EXISTS temp.main.${sqlIdentifier(staged)}`).catch(() => {});
  }
}

/** The columns of a SELECT as DuckDB binds it (the source is asked for its types only). */
export async function describe(connection: EngineConnection, select: string, watch?: StatementWatch): Promise<Column[]> {
  const rows = await connection.read(`DESCRIBE SELECT * FROM (\n${select}\n)`, undefined, watch);
  return rows.getRows().map(([name, type]) => ({ name: String(name), type: String(type) }));
}

/** The batch in a temp table, one row per key (the last by `latestFirst`), before the lake transaction starts. */
async function stageKeyed(connection: EngineConnection, write: RelationWrite): Promise<string> {
  const name = `batch_${Bun.randomUUIDv7().replaceAll('-', '')}`;
  const { key, latestFirst = [] } = write.upsert!;
  const order = latestFirst.length ? `ORDER BY ${latestFirst.map((column) => `${sqlIdentifier(column)} DESC NULLS LAST`).join(', ')}` : '';
  await connection.run(
    `CREATE TEMP TABLE ${sqlIdentifier(name)} AS SELECT * FROM (\n${write.select!}\n) AS batch
     QUALIFY row_number() OVER (PARTITION BY ${key.map(sqlIdentifier).join(', ')} ${order}) = 1`,
    undefined,
    write.watch,
  );
  return name;
}

interface ColumnPlan {
  /** The table's columns after the write, by folded name. */
  columns: Map<string, Column>;
  added: Column[];
  widened: Column[];
  /** Type changes DuckLake cannot make in place: the table is rewritten in the same snapshot. */
  rebuild: boolean;
  changes: SchemaChange[];
}

function planColumns(existing: CatalogColumn[] | undefined, incoming: Column[], table: string): ColumnPlan {
  const columns = new Map<string, Column>(
    (existing ?? []).map((column) => [column.name.toLowerCase(), { name: column.name, type: normalizeType(column.type) }]),
  );
  const plan: ColumnPlan = { columns, added: [], widened: [], rebuild: false, changes: [] };
  for (const column of incoming) {
    const current = columns.get(column.name.toLowerCase());
    if (!current) {
      const added = { name: column.name, type: normalizeType(column.type) };
      columns.set(column.name.toLowerCase(), added);
      if (existing) {
        plan.added.push(added);
        plan.changes.push({ table, column: column.name, change: 'added', to: added.type });
      }
      continue;
    }
    const target = widenType(current.type, column.type);
    if (target === current.type) continue;
    plan.changes.push({ table, column: current.name, change: 'widened', from: current.type, to: target });
    if (promotesInPlace(current.type, target)) plan.widened.push({ name: current.name, type: target });
    else plan.rebuild = true;
    columns.set(column.name.toLowerCase(), { name: current.name, type: target });
  }
  return plan;
}

/** The columns of a table created anew for the batch, and how they differ from the table it replaces. */
function replacementPlan(existing: CatalogColumn[] | undefined, incoming: Column[], table: string): ColumnPlan {
  const columns = new Map<string, Column>(incoming.map((column) => [column.name.toLowerCase(), { name: column.name, type: normalizeType(column.type) }]));
  const before = new Map((existing ?? []).map((column) => [column.name.toLowerCase(), column]));
  const changes = existing
    ? [
        ...[...columns.values()].flatMap((column): SchemaChange[] => {
          const previous = before.get(column.name.toLowerCase());
          if (!previous) return [{ table, column: column.name, change: 'added', to: column.type }];
          const from = normalizeType(previous.type);
          return from === column.type ? [] : [{ table, column: column.name, change: 'retyped', from, to: column.type }];
        }),
        ...existing
          .filter((column) => !columns.has(column.name.toLowerCase()))
          .map((column): SchemaChange => ({ table, column: column.name, change: 'dropped', from: normalizeType(column.type) })),
      ]
    : [];
  return { columns, added: [], widened: [], rebuild: false, changes };
}

function replacementStatements(table: TableName, plan: ColumnPlan): string[] {
  const columns = [...plan.columns.values()].map((column) => `${sqlIdentifier(column.name)} ${column.type}`);
  return [`CREATE SCHEMA IF NOT EXISTS ${lakeAlias}.${sqlIdentifier(table.schema)}`, `CREATE OR REPLACE TABLE ${qualifiedSql(table)} (${columns.join(', ')})`];
}

function ddlStatements(table: TableName, existing: CatalogColumn[] | undefined, plan: ColumnPlan): string[] {
  const target = qualifiedSql(table);
  const statements = [`CREATE SCHEMA IF NOT EXISTS ${lakeAlias}.${sqlIdentifier(table.schema)}`];
  if (!existing) {
    statements.push(`CREATE TABLE ${target} (${[...plan.columns.values()].map((column) => `${sqlIdentifier(column.name)} ${column.type}`).join(', ')})`);
    return statements;
  }
  for (const column of plan.added) statements.push(`ALTER TABLE ${target} ADD COLUMN ${sqlIdentifier(column.name)} ${column.type}`);
  for (const column of plan.widened) statements.push(`ALTER TABLE ${target} ALTER COLUMN ${sqlIdentifier(column.name)} TYPE ${column.type}`);
  if (plan.rebuild) {
    // The types as the statements above leave them: added columns and in-place promotions done.
    const current = new Map(existing.map((column) => [column.name.toLowerCase(), normalizeType(column.type)]));
    for (const column of [...plan.added, ...plan.widened]) current.set(column.name.toLowerCase(), column.type);
    const casts = [...plan.columns.values()].map(
      (column) =>
        `${conversion(sqlIdentifier(column.name), current.get(column.name.toLowerCase()) ?? column.type, column.type)} AS ${sqlIdentifier(column.name)}`,
    );
    statements.push(`CREATE OR REPLACE TABLE ${target} AS SELECT ${casts.join(', ')} FROM ${target}`);
  }
  return statements;
}

function deleteReplaced(table: TableName, key: string[], source: string): string {
  const target = qualifiedSql(table);
  const matches = key.map((column) => `${target}.${sqlIdentifier(column)} IS NOT DISTINCT FROM incoming.${sqlIdentifier(column)}`).join(' AND ');
  return `DELETE FROM ${target} USING ${source} AS incoming WHERE ${matches}`;
}

function insertStatement(table: TableName, columns: Map<string, Column>, incoming: Column[], source: string): string {
  const names = incoming.map((column) => sqlIdentifier(columns.get(column.name.toLowerCase())!.name));
  const values = incoming.map((column) => conversion(`batch.${sqlIdentifier(column.name)}`, column.type, columns.get(column.name.toLowerCase())!.type));
  return `INSERT INTO ${qualifiedSql(table)} (${names.join(', ')}) SELECT ${values.join(', ')} FROM ${source} AS batch`;
}

function qualifiedSql(table: TableName): string {
  return `${lakeAlias}.${sqlIdentifier(table.schema)}.${sqlIdentifier(table.table)}`;
}

function qualified(table: TableName): string {
  return `${table.schema}.${table.table}`;
}
