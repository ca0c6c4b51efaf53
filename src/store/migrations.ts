import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { namedQuery } from './named-query';
import type { Store } from './store';

export const defaultMigrationsDir = resolve(import.meta.dir, '..', '..', 'migrations');

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

const createLedger = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  checksum TEXT NOT NULL,
  applied_at TIMESTAMPTZ NOT NULL
)`;
const listApplied = namedQuery<Record<never, never>, { version: number; name: string; checksum: string }>(
  'migrations.list_applied',
  'SELECT version, name, checksum FROM schema_migrations ORDER BY version',
);
const recordApplied = namedQuery<{ version: number; name: string; checksum: string; applied_at: string }>(
  'migrations.record_applied',
  'INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (:version, :name, :checksum, :applied_at)',
);

/** Numbered `NNNN_name.sql` files, in order. */
export function readMigrations(dir: string = defaultMigrationsDir): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => {
      const sql = readFileSync(join(dir, file), 'utf8');
      return {
        version: Number(file.slice(0, 4)),
        name: file.slice(5, -4),
        sql,
        checksum: createHash('sha256').update(sql).digest('hex'),
      };
    });
}

/**
 * Applies pending migrations in one transaction, recording each. Safe to run concurrently from several
 * processes (they queue on a lock) and to re-run. An applied migration whose file has since changed
 * stops the start: history is never rewritten silently.
 */
export async function migrate(store: Store, migrations: Migration[] = readMigrations()): Promise<Migration[]> {
  const applied: Migration[] = [];
  await store.schemaTransaction(async (tx) => {
    await tx.lock('oxbow:migrations');
    await tx.script(createLedger);
    const done = new Map((await tx.all(listApplied, {})).map((row) => [row.version, row]));
    for (const migration of migrations) {
      const previous = done.get(migration.version);
      if (previous) {
        if (previous.checksum !== migration.checksum) {
          throw new Error(`migration ${migration.version}_${migration.name} was changed after it was applied; add a new migration instead`);
        }
        continue;
      }
      await tx.script(migration.sql);
      await tx.run(recordApplied, { ...migration, applied_at: new Date().toISOString() });
      applied.push(migration);
    }
  });
  return applied;
}
