import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Server } from 'bun';
import type { TestApp } from '../../support/test-app';
import type { TestUser } from '../../support/accounts';
import { bodyOf } from '../../support/http';
import { connectionsPath, createConnectionOk, queryRows, syncOk } from '../../support/connections';
import { withWorkspace } from '../../support/fixtures';

interface Item {
  id: number;
  name: string;
  updated_at: string;
  score?: number;
  color?: string;
}

const token = 'Bearer http-source-token';

/**
 * A REST API as such sources are: items behind a bearer token, in pages numbered, by offset, by a
 * cursor in the body or by Link headers.
 */
function startSource(items: Item[]): Server<undefined> {
  const pageOf = (from: number, size: number) => items.slice(from, from + size);
  return Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      if (request.headers.get('authorization') !== token) return Response.json({ error: 'unauthorized' }, { status: 401 });
      const url = new URL(request.url);
      const size = Number(url.searchParams.get('per_page') ?? url.searchParams.get('limit') ?? 7);
      switch (url.pathname) {
        // The base URL itself answers; `/api/` (another URL) does not.
        case '/api':
          return Response.json(items);
        case '/api/pages': {
          const page = Number(url.searchParams.get('page') ?? 1);
          return Response.json(pageOf((page - 1) * size, size));
        }
        case '/api/offsets':
          return Response.json({ results: pageOf(Number(url.searchParams.get('offset') ?? 0), size) });
        case '/api/cursors': {
          const from = Number(url.searchParams.get('after') ?? 0);
          const data = pageOf(from, 7);
          return Response.json({ data, meta: { next: from + 7 < items.length ? String(from + 7) : null } });
        }
        case '/api/links': {
          const from = Number(url.searchParams.get('from') ?? 0);
          const headers: Record<string, string> = {};
          if (from + 7 < items.length) headers.link = `<${url.origin}/api/links?from=${from + 7}>; rel="next", <${url.origin}/api/links?from=0>; rel="first"`;
          return Response.json(pageOf(from, 7), { headers });
        }
        default:
          return Response.json({ error: 'not found' }, { status: 404 });
      }
    },
  });
}

describe('http_json connections', () => {
  let t: TestApp, user: TestUser, workspaceId: string;
  let server: Server<undefined>;
  const freshItems = (): Item[] =>
    Array.from({ length: 40 }, (_, index) => ({
      id: index + 1,
      name: `item ${index + 1}`,
      updated_at: new Date(Date.UTC(2024, 0, 1, 0, index)).toISOString(),
      score: index / 2,
    }));
  const items = freshItems();

  const create = (name: string, pagination: Record<string, unknown>, stream: Record<string, unknown>, extra: Record<string, unknown> = {}, source = server) =>
    createConnectionOk(t, user, workspaceId, {
      name,
      connector_type: 'http_json',
      spec: {
        base_url: `http://127.0.0.1:${source.port}/api`,
        auth_header: { name: 'Authorization', value: token },
        pagination,
        streams: [{ name: 'items', ...stream }],
      },
      ...extra,
    });

  beforeAll(async () => {
    server = startSource(items);
    ({ t, user, workspaceId } = await withWorkspace('local', { worker: true, env: { SYNC_BATCH_ROWS: '10' }, label: 'http-sync', plan: 'business' }));
  });
  afterAll(async () => {
    await t.stop();
    await server.stop(true);
  });

  test('a stream with the default empty path requests base_url itself, not base_url + "/"', async () => {
    const connection = await create('at_base', {}, {});
    expect(connection.spec.streams[0].path).toBe('');
    const job = await syncOk(t, user, workspaceId, connection.id);
    expect(job.records_written).toBe(40);
  });

  const styles: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['page_number', { style: 'page_number', page_param: 'page', size_param: 'per_page', page_size: 7 }, { path: 'pages' }],
    ['offset', { style: 'offset', offset_param: 'offset', limit_param: 'limit', page_size: 7 }, { path: 'offsets', records_path: 'results' }],
    ['cursor', { style: 'cursor', cursor_param: 'after', cursor_path: 'meta.next' }, { path: 'cursors', records_path: 'data' }],
    ['link_header', { style: 'link_header' }, { path: 'links' }],
  ];
  for (const [style, pagination, stream] of styles) {
    test(`${style} pagination: every record once, in batches`, async () => {
      const connection = await create(`by_${style}`, pagination, stream);
      const job = await syncOk(t, user, workspaceId, connection.id);
      expect(job.streams).toEqual([
        {
          name: 'items',
          status: 'succeeded',
          sync_mode: 'full_refresh_overwrite',
          records_read: 40,
          records_written: 40,
          records_deleted: 0,
          bytes_read: expect.any(Number),
        },
      ]);
      expect(await queryRows(t, user, workspaceId, `SELECT count(*) AS n, count(DISTINCT id) AS d, sum(id) AS s FROM by_${style}.items`)).toEqual([
        { n: 40, d: 40, s: 820 },
      ]);
    });
  }

  test('types are inferred from the records; test, streams and preview answer from the source', async () => {
    const connection = await create('typed', styles[0]![1], styles[0]![2]);
    const base = `${connectionsPath(workspaceId)}/${connection.id}`;
    expect(await bodyOf(await t.request(`${base}/test`, { method: 'POST', token: user.accessToken }))).toMatchObject({ success: true, message: 'Connected' });
    const [info] = await bodyOf(await t.request(`${base}/streams`, { token: user.accessToken }));
    expect(info.columns).toEqual([
      { name: 'id', type: 'BIGINT', nullable: true },
      { name: 'name', type: 'VARCHAR', nullable: true },
      { name: 'updated_at', type: 'TIMESTAMPTZ', nullable: true },
      { name: 'score', type: 'DOUBLE', nullable: true },
    ]);
    const preview = await bodyOf(await t.request(`${base}/preview`, { method: 'POST', json: { stream: 'items', limit: 2 }, token: user.accessToken }));
    expect(preview).toEqual({
      stream: 'items',
      columns: info.columns.map(({ name, type }: { name: string; type: string }) => ({ name, type })),
      rows: [
        [1, 'item 1', items[0]!.updated_at, 0],
        [2, 'item 2', items[1]!.updated_at, 0.5],
      ],
      row_count: 2,
    });
    const missing = await t.request(`${base}/preview`, { method: 'POST', json: { stream: 'nope' }, token: user.accessToken });
    expect(missing.status).toBe(404);
  });

  test('a sync that names its streams plans from the last discovery; a changed connection and the streams endpoint ask the source again', async () => {
    // A source that counts the requests for its first page: a discovery asks for it once, and so does a sync's read.
    let firstPages = 0;
    const counted = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch(request) {
        const page = Number(new URL(request.url).searchParams.get('page') ?? 1);
        if (page === 1) firstPages += 1;
        return Response.json(page === 1 ? items.slice(0, 5) : []);
      },
    });
    try {
      const connection = await create('rediscovered', styles[0]![1], styles[0]![2], { streams: [{ name: 'items' }] }, counted);
      const asked = async (work: () => Promise<unknown>) => {
        const before = firstPages;
        await work();
        return firstPages - before;
      };
      const base = `${connectionsPath(workspaceId)}/${connection.id}`;
      expect(await asked(() => syncOk(t, user, workspaceId, connection.id))).toBe(2);
      expect(await asked(() => syncOk(t, user, workspaceId, connection.id))).toBe(1);
      expect(await asked(() => t.request(`${base}/streams`, { token: user.accessToken }))).toBe(1);
      expect(await asked(() => syncOk(t, user, workspaceId, connection.id))).toBe(1);
      const patched = await t.request(base, {
        method: 'PATCH',
        json: { streams: [{ name: 'items', sync_mode: 'full_refresh_append' }] },
        token: user.accessToken,
      });
      expect(patched.status).toBe(200);
      expect(await asked(() => syncOk(t, user, workspaceId, connection.id))).toBe(2);
      expect(await queryRows(t, user, workspaceId, 'SELECT count(*) AS n FROM rediscovered.items')).toEqual([{ n: 10 }]);
    } finally {
      await counted.stop(true);
    }
  });

  test('a wrong token: the test says authentication failed, discovery is 400 SOURCE_ERROR', async () => {
    const connection = await createConnectionOk(t, user, workspaceId, {
      name: 'locked_out',
      connector_type: 'http_json',
      spec: { base_url: `http://127.0.0.1:${server.port}/api`, auth_header: { value: 'Bearer wrong' }, streams: [{ name: 'items', path: 'pages' }] },
    });
    const base = `${connectionsPath(workspaceId)}/${connection.id}`;
    const tested = await bodyOf(await t.request(`${base}/test`, { method: 'POST', token: user.accessToken }));
    expect(tested.success).toBe(false);
    expect(tested.message).toStartWith('Authentication failed: HTTP 401');
    const streams = await t.request(`${base}/streams`, { token: user.accessToken });
    expect(streams.status).toBe(400);
    expect((await bodyOf(streams)).detail.error.code).toBe('SOURCE_ERROR');
  });

  test('incremental, deduplicated on the key: only records beyond the cursor, upserted; new fields become columns', async () => {
    // A source of its own: this test changes its records.
    const items = freshItems();
    const source = startSource(items);
    try {
      await incrementalSyncs(items, source);
    } finally {
      await source.stop(true);
    }
  });

  async function incrementalSyncs(items: Item[], source: Server<undefined>) {
    const connection = await create(
      'incremental',
      styles[0]![1],
      { ...styles[0]![2], primary_key: ['id'], cursor_field: 'updated_at' },
      { streams: [{ name: 'items', sync_mode: 'incremental_append_deduped' }] },
      source,
    );
    const first = await syncOk(t, user, workspaceId, connection.id);
    expect(first.records_written).toBe(40);
    items[4] = { ...items[4]!, name: 'renamed', updated_at: '2024-02-01T00:00:00.000Z', color: 'red' };
    items.push({ id: 41, name: 'new', updated_at: '2024-02-02T00:00:00.000Z', color: 'blue' });
    const second = await syncOk(t, user, workspaceId, connection.id);
    expect(second.streams[0]).toMatchObject({ records_read: 41, records_written: 2 });
    expect(second.schema_changes).toEqual([{ table: 'incremental.items', column: 'color', change: 'added', to: 'VARCHAR' }]);
    expect(await queryRows(t, user, workspaceId, 'SELECT count(*) AS n, count(DISTINCT id) AS d FROM incremental.items')).toEqual([{ n: 41, d: 41 }]);
    expect(await queryRows(t, user, workspaceId, 'SELECT name, color FROM incremental.items WHERE id IN (5, 41) ORDER BY id')).toEqual([
      { name: 'renamed', color: 'red' },
      { name: 'new', color: 'blue' },
    ]);
    const status = await bodyOf(await t.request(`${connectionsPath(workspaceId)}/${connection.id}/sync-status`, { token: user.accessToken }));
    expect(status).toEqual([
      // The spec's cursor_field is the stream's cursor, and its state says so.
      {
        stream: 'items',
        sync_mode: 'incremental_append_deduped',
        cursor_field: 'updated_at',
        cursor_value: '2024-02-02T00:00:00.000Z',
        primary_key: ['id'],
        records_total: 41,
        last_job_id: second.id,
        last_synced_at: expect.any(String),
        status: 'succeeded',
      },
    ]);
    const third = await syncOk(t, user, workspaceId, connection.id);
    expect(third.records_written).toBe(0);
  }
});
