import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../../support/test-app';
import type { TestUser } from '../../support/accounts';
import {
  createConnectionOk,
  createSourceDatabase,
  postgresSpec,
  syncJob,
  syncOk,
  throttledReader,
  triggerSyncOk,
  type SourceDatabase,
} from '../../support/connections';
import { withWorkspace } from '../../support/fixtures';

/** A long read tells how far it is while it runs: the job's counts move, and the stream it is on is named. */
describe('sync progress', () => {
  let t: TestApp, user: TestUser, workspaceId: string;
  let source: SourceDatabase;
  // The source's reader: each 10,000th row of `readings` costs it 40 ms, so the read takes seconds.
  let reader: { role: string; drop(): Promise<void> } | undefined;

  beforeAll(async () => {
    source = await createSourceDatabase();
    await source.sql.unsafe('CREATE TABLE readings (id bigint PRIMARY KEY, sensor int, value double precision)');
    await source.sql.unsafe('INSERT INTO readings SELECT g, g % 1000, g * 0.5 FROM generate_series(1, 2000000) g');
    await source.sql.unsafe('ANALYZE readings');
    reader = await throttledReader(source, 'readings', 10_000, 0.04);
    // Never analysed: Postgres keeps no size for it.
    await source.sql.unsafe('CREATE TABLE unanalysed (id bigint PRIMARY KEY, label text) WITH (autovacuum_enabled = false)');
    await source.sql.unsafe("INSERT INTO unanalysed SELECT g, repeat('x', 100) FROM generate_series(1, 5000) g");
    ({ t, user, workspaceId } = await withWorkspace('local', { worker: true, label: 'sync-progress', plan: 'business' }));
  });
  afterAll(async () => {
    await t.stop();
    await reader?.drop();
    await source.drop();
  });

  test('a full sync of 2,000,000 rows read in one scan: records read and written and bytes strictly increase while it runs', async () => {
    const connection = await createConnectionOk(t, user, workspaceId, {
      name: 'progress',
      connector_type: 'postgres',
      spec: postgresSpec(source, { username: reader!.role }),
      streams: [{ name: 'readings', sync_mode: 'full_refresh_overwrite' }],
    });
    const jobId = await triggerSyncOk(t, user, workspaceId, connection.id);
    const seen: { read: number; written: number; bytes: number }[] = [];
    let job = await syncJob(t, user, workspaceId, connection.id, jobId);
    while (['pending', 'running'].includes(job.status)) {
      const stream = job.streams[0];
      if (job.status === 'running' && stream && stream.records_read > 0 && stream.records_read < 2_000_000) {
        expect(job.current_stream).toBe('readings');
        if (seen.at(-1)?.read !== stream.records_read) seen.push({ read: stream.records_read, written: stream.records_written, bytes: stream.bytes_read });
      }
      // Read often: the progress moves every half second or so.
      await Bun.sleep(50);
      job = await syncJob(t, user, workspaceId, connection.id, jobId);
    }
    expect(job.status).toBe('succeeded');
    expect(job.streams[0]).toMatchObject({ records_read: 2_000_000, records_written: 2_000_000 });
    // Several readings before the end, each past the one before (the read takes 8 s of sleeps alone).
    expect(seen.length).toBeGreaterThanOrEqual(3);
    for (const [index, point] of seen.entries()) {
      if (index === 0) continue;
      expect(point.read).toBeGreaterThan(seen[index - 1]!.read);
      expect(point.written).toBeGreaterThan(seen[index - 1]!.written);
      expect(point.bytes).toBeGreaterThan(seen[index - 1]!.bytes);
    }
    expect(job.streams[0].bytes_read).toBeGreaterThan(seen.at(-1)!.bytes);
  }, 180_000);

  test('bytes read are estimated for a table Postgres never analysed', async () => {
    const connection = await createConnectionOk(t, user, workspaceId, {
      name: 'unanalysed',
      connector_type: 'postgres',
      spec: postgresSpec(source),
      streams: [{ name: 'unanalysed', sync_mode: 'full_refresh_overwrite' }],
    });
    const job = await syncOk(t, user, workspaceId, connection.id);
    expect(job.streams[0].records_written).toBe(5_000);
    // About 100 bytes of text and a bigint per row, as the source stores them.
    expect(job.streams[0].bytes_read).toBeGreaterThan(5_000 * 100);
    expect(job.streams[0].bytes_read).toBeLessThan(5_000 * 300);
  });
});
