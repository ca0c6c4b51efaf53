import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteObjectsCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DuckDBInstance } from '@duckdb/node-api';
import { startTestApp, type TestApp } from '../../support/test-app';
import { type TestUser } from '../../support/accounts';
import { bodyOf } from '../../support/http';
import { testEnv } from '../../support/test-env';
import { connectionsPath, createConnection, createConnectionOk, queryRows, syncOk } from '../../support/connections';
import { withWorkspace } from '../../support/fixtures';

const s3 = testEnv.s3();
const client = new S3Client({
  endpoint: s3.endpoint,
  region: s3.region,
  forcePathStyle: true,
  credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
});
const prefix = `s3-source-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

const put = (key: string, body: string | Uint8Array) => client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: `${prefix}/${key}`, Body: body }));

/** A Parquet file written by DuckDB itself, as a data pipeline would leave one. */
async function parquetOf(sql: string): Promise<Uint8Array> {
  const dir = mkdtempSync(join(tmpdir(), 'oxbow-parquet-'));
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run(`COPY (${sql}) TO '${join(dir, 'file.parquet')}' (FORMAT parquet)`);
    return new Uint8Array(readFileSync(join(dir, 'file.parquet')));
  } finally {
    connection.closeSync();
    instance.closeSync();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('s3_files connections', () => {
  let t: TestApp, user: TestUser, workspaceId: string;

  const spec = (streams: Record<string, unknown>[], extra: Record<string, unknown> = {}) => ({
    bucket: s3.bucket,
    region: s3.region,
    endpoint: s3.endpoint,
    access_key_id: s3.accessKeyId,
    secret_access_key: s3.secretAccessKey,
    streams,
    ...extra,
  });

  beforeAll(async () => {
    await put('orders/2024-01.csv', 'id,amount,region\n1,10.5,eu\n2,20,us\n');
    await put('orders/2024-02.csv', 'id,amount,region\n3,7.25,eu\n');
    await put('events/a.ndjson', '{"id":1,"kind":"click","meta":{"x":1}}\n{"id":2,"kind":"view","meta":{"x":2}}\n');
    await put('events/b.json', JSON.stringify([{ id: 3, kind: 'click', meta: { x: 3 } }]));
    await put('metrics/m.parquet', await parquetOf("SELECT range AS id, range * 2.5 AS value, DATE '2024-01-01' + range::INTEGER AS day FROM range(100)"));
    ({ t, user, workspaceId } = await withWorkspace('local', { worker: true, label: 's3-sync' }));
  });
  afterAll(async () => {
    await t.stop();
    const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `${prefix}/` }));
    if (listed.Contents?.length)
      await client.send(new DeleteObjectsCommand({ Bucket: s3.bucket, Delete: { Objects: listed.Contents.map((object) => ({ Key: object.Key! })) } }));
  });

  test('CSV, JSON and Parquet files under globs: streams, preview, sync; new files only, incrementally', async () => {
    const connection = await createConnectionOk(t, user, workspaceId, {
      name: 'files',
      connector_type: 's3_files',
      spec: spec([
        { name: 'orders', glob: `${prefix}/orders/*.csv`, format: 'csv' },
        { name: 'events', glob: `${prefix}/events/*`, format: 'json' },
        { name: 'metrics', glob: `${prefix}/metrics/**/*.parquet`, format: 'parquet' },
      ]),
      streams: [{ name: 'orders', sync_mode: 'incremental_append' }, { name: 'events' }, { name: 'metrics' }],
    });
    expect(connection.spec.secret_access_key).toBe('********');
    const base = `${connectionsPath(workspaceId)}/${connection.id}`;
    expect(await bodyOf(await t.request(`${base}/test`, { method: 'POST', token: user.accessToken }))).toMatchObject({ success: true });
    const streams = await bodyOf(await t.request(`${base}/streams`, { token: user.accessToken }));
    expect(streams.find((stream: { name: string }) => stream.name === 'orders').columns.map((column: { name: string }) => column.name)).toEqual([
      'id',
      'amount',
      'region',
      '_source_file',
      '_source_modified_at',
    ]);
    const preview = await bodyOf(await t.request(`${base}/preview`, { method: 'POST', json: { stream: 'metrics', limit: 2 }, token: user.accessToken }));
    expect(preview.rows.map((row: unknown[]) => row.slice(0, 3))).toEqual([
      [0, 0, '2024-01-01'],
      [1, 2.5, '2024-01-02'],
    ]);

    const first = await syncOk(t, user, workspaceId, connection.id);
    expect(first.streams.map((stream: { name: string; records_written: number }) => [stream.name, stream.records_written]).sort()).toEqual([
      ['events', 3],
      ['metrics', 100],
      ['orders', 3],
    ]);
    expect(await queryRows(t, user, workspaceId, 'SELECT sum(amount) AS total, count(DISTINCT _source_file) AS files FROM files.orders')).toEqual([
      { total: 37.75, files: 2 },
    ]);
    expect(await queryRows(t, user, workspaceId, "SELECT id, meta.x AS x FROM files.events WHERE kind = 'click' ORDER BY id")).toEqual([
      { id: 1, x: 1 },
      { id: 3, x: 3 },
    ]);
    expect(await queryRows(t, user, workspaceId, 'SELECT count(*) AS n, max(day) AS last FROM files.metrics')).toEqual([{ n: 100, last: '2024-04-09' }]);

    await Bun.sleep(1_100); // S3 modification times have a resolution of a second on some stores.
    await put('orders/2024-03.csv', 'id,amount,region,channel\n4,1,us,web\n');
    const second = await syncOk(t, user, workspaceId, connection.id, { streams: ['orders'] });
    expect(second.streams).toEqual([expect.objectContaining({ name: 'orders', records_written: 1 })]);
    expect(second.schema_changes).toEqual([{ table: 'files.orders', column: 'channel', change: 'added', to: 'VARCHAR' }]);
    expect(await queryRows(t, user, workspaceId, 'SELECT count(*) AS n, count(channel) AS c FROM files.orders')).toEqual([{ n: 4, c: 1 }]);
  });

  test('a wrong secret: the test says authentication failed', async () => {
    const connection = await createConnectionOk(t, user, workspaceId, {
      name: 'wrong_key',
      connector_type: 's3_files',
      spec: spec([{ name: 'orders', glob: `${prefix}/orders/*.csv`, format: 'csv' }], { secret_access_key: 'not-the-secret' }),
    });
    const tested = await bodyOf(await t.request(`${connectionsPath(workspaceId)}/${connection.id}/test`, { method: 'POST', token: user.accessToken }));
    expect(tested.success).toBe(false);
    expect(tested.message).toStartWith('Authentication failed');
  });
});

describe('s3_files next to a lake on S3', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('postgres-s3');
  });
  afterAll(() => t.stop());

  test('the service’s own lake bucket is never a source', async () => {
    const { user, workspaceId } = await withWorkspace(t, { label: 's3-lake' });
    const response = await createConnection(t, user, workspaceId, {
      name: 'lake_copy',
      connector_type: 's3_files',
      spec: {
        bucket: s3.bucket,
        endpoint: s3.endpoint,
        access_key_id: s3.accessKeyId,
        secret_access_key: s3.secretAccessKey,
        streams: [{ name: 'all', glob: '**/*.parquet', format: 'parquet' }],
      },
    });
    expect(response.status).toBe(400);
    expect((await bodyOf(response)).detail.error).toMatchObject({ code: 'SOURCE_NOT_ALLOWED', message: expect.stringContaining('lake bucket') });
  });
});
