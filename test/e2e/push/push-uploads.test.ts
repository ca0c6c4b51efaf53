import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../../support/test-app';
import { backends } from '../../support/backends';
import { bodyOf } from '../../support/http';
import type { TestUser } from '../../support/accounts';
import { columnsOf, pushOk, query } from '../../support/lake';
import { ndjsonOf, parquetOf, upload } from '../../support/uploads';
import { withWorkspace } from '../../support/fixtures';

const ndjson = 'application/x-ndjson';
const csv = 'text/csv';
const parquet = 'application/vnd.apache.parquet';

// The lake writer runs against both catalogs (SQLite embedded, Postgres in production).
for (const backend of backends)
  describe(`push of NDJSON, CSV and Parquet bodies on ${backend}`, () => {
    let t: TestApp, user: TestUser, workspaceId: string;
    beforeAll(async () => ({ t, user, workspaceId } = await withWorkspace(backend, { label: 'uploader' })));
    afterAll(() => t.stop());

    const ok = async (response: Response) => {
      if (response.status !== 200) throw new Error(`${response.status} ${await response.text()}`);
      return bodyOf(response);
    };
    const countOf = async (table: string) => Number((await query(t, workspaceId, `SELECT count(*) AS n FROM ${table}`))[0]!.n);

    const mixed = [
      { id: 1, name: 'ann', score: 1.5, active: true, at: '2026-11-21T10:00:00Z', day: '2026-11-21', tags: ['a'], meta: { k: 1 }, gone: null },
      { id: 2, name: 'bob', score: 2, active: false, at: '2026-11-21T11:30:00+02:00', day: '2026-11-22', tags: [], meta: null, gone: null },
      { id: 2 ** 60, name: 'big', extra: 'only here' },
    ];

    test('NDJSON gets exactly the columns and types a JSON push of the same records gets', async () => {
      await pushOk(t, workspaceId, user, { table: 'same.as_json', records: mixed });
      const answer = await ok(await upload(t, workspaceId, user, ndjsonOf(mixed), ndjson, { table: 'same.as_ndjson' }));
      expect(answer).toEqual({ records_written: 3, table: 'same.as_ndjson' });
      expect(await columnsOf(t, workspaceId, 'same.as_ndjson', user)).toEqual(await columnsOf(t, workspaceId, 'same.as_json', user));
      const rows = await query(t, workspaceId, 'SELECT name, score, tags::VARCHAR AS tags, extra FROM same.as_ndjson ORDER BY name');
      expect(rows).toEqual([
        { name: 'ann', score: 1.5, tags: '["a"]', extra: null },
        { name: 'big', score: null, tags: null, extra: 'only here' },
        { name: 'bob', score: 2, tags: '[]', extra: null },
      ]);
    });

    test('blank lines and CRLF line ends are read as a JSON push would read the records', async () => {
      const body = '{"a":1}\r\n\r\n{"a":2,"b":"x"}\n\n';
      expect(await ok(await upload(t, workspaceId, user, body, ndjson, { table: 'same.crlf' }))).toEqual({ records_written: 2, table: 'same.crlf' });
    });

    test('CSV with a header row: types sniffed onto the push types, quoted fields kept whole', async () => {
      const body =
        'id,name,amount,paid,at,day\n1,"Smith, Ann",10.5,true,2026-11-21T10:00:00Z,2026-11-21\n2,Bob,3,false,2026-11-21 12:00:00,2026-11-22\n3,,,,,\n';
      expect(await ok(await upload(t, workspaceId, user, body, 'text/csv; charset=utf-8', { table: 'files.people' }))).toEqual({
        records_written: 3,
        table: 'files.people',
      });
      expect(await columnsOf(t, workspaceId, 'files.people', user)).toEqual({
        id: 'BIGINT',
        name: 'VARCHAR',
        amount: 'DOUBLE',
        paid: 'BOOLEAN',
        at: 'TIMESTAMP WITH TIME ZONE',
        day: 'DATE',
      });
      expect((await query(t, workspaceId, 'SELECT name FROM files.people WHERE id = 1'))[0]).toEqual({ name: 'Smith, Ann' });
    });

    test('a CSV value beyond the sniffer’s sample that does not fit its type widens the column instead of failing', async () => {
      const lines = Array.from({ length: 30_000 }, (_, i) => `${i},${i}`);
      lines.push('30000,not a number');
      const answer = await ok(await upload(t, workspaceId, user, `id,code\n${lines.join('\n')}\n`, csv, { table: 'files.late' }));
      expect(answer.records_written).toBe(30_001);
      expect((await columnsOf(t, workspaceId, 'files.late', user)).code).toBe('VARCHAR');
    });

    test('Parquet: its schema mapped onto the push types, nested values as JSON', async () => {
      const bytes = await parquetOf(
        `SELECT i::INTEGER AS id, (i * 1.25)::DECIMAL(10, 2) AS price, 'n' || i AS name, {'k': i} AS meta, [i, i] AS pair, DATE '2026-01-01' + i::INTEGER AS day FROM range(5) t(i)`,
      );
      expect(await ok(await upload(t, workspaceId, user, bytes, parquet, { table: 'files.parq' }))).toEqual({ records_written: 5, table: 'files.parq' });
      expect(await columnsOf(t, workspaceId, 'files.parq', user)).toEqual({
        id: 'BIGINT',
        price: 'DOUBLE',
        name: 'VARCHAR',
        meta: 'JSON',
        pair: 'JSON',
        day: 'DATE',
      });
      expect((await query(t, workspaceId, "SELECT meta->>'k' AS k, price FROM files.parq WHERE id = 2"))[0]).toEqual({ k: '2', price: 2.5 });
    });

    test('gzip bodies of each format', async () => {
      const records = Array.from({ length: 1000 }, (_, i) => ({ id: i, v: `value ${i}` }));
      expect(
        (await ok(await upload(t, workspaceId, user, Bun.gzipSync(ndjsonOf(records)), ndjson, { table: 'gz.n' }, { 'content-encoding': 'gzip' })))
          .records_written,
      ).toBe(1000);
      const text = `id,v\n${records.map((r) => `${r.id},${r.v}`).join('\n')}\n`;
      expect((await ok(await upload(t, workspaceId, user, Bun.gzipSync(text), csv, { table: 'gz.c' }, { 'content-encoding': 'gzip' }))).records_written).toBe(
        1000,
      );
      const bytes = await parquetOf('SELECT range AS id FROM range(1000)');
      expect(
        (await ok(await upload(t, workspaceId, user, Bun.gzipSync(bytes), parquet, { table: 'gz.p' }, { 'content-encoding': 'GZIP' }))).records_written,
      ).toBe(1000);
      expect(await countOf('gz.p')).toBe(1000);
    });

    test('modes, schema evolution and primary keys as for JSON pushes (the last record of a key wins)', async () => {
      await pushOk(t, workspaceId, user, { table: 'evolve.items', records: [{ id: 1, qty: 1 }], primary_key: ['id'] });
      const body = ndjsonOf([
        { id: 1, qty: 1.5, note: 'new column' },
        { id: 2, qty: 2 },
        { id: 1, qty: 3.5, note: 'last wins' },
      ]);
      expect(await ok(await upload(t, workspaceId, user, body, ndjson, { table: 'evolve.items' }))).toEqual({ records_written: 2, table: 'evolve.items' });
      expect(await query(t, workspaceId, 'SELECT id, qty, note FROM evolve.items ORDER BY id')).toEqual([
        { id: 1, qty: 3.5, note: 'last wins' },
        { id: 2, qty: 2, note: null },
      ]);
      const csvBody = 'id,qty\n2,20\n3,30\n2,21\n';
      expect((await ok(await upload(t, workspaceId, user, csvBody, csv, { table: 'evolve.items', primary_key: 'id' }))).records_written).toBe(2);
      expect(await query(t, workspaceId, 'SELECT id, qty FROM evolve.items ORDER BY id')).toEqual([
        { id: 1, qty: 3.5 },
        { id: 2, qty: 21 },
        { id: 3, qty: 30 },
      ]);
      const conflict = await upload(t, workspaceId, user, csvBody, csv, { table: 'evolve.items', primary_key: 'qty' });
      expect(conflict.status).toBe(409);
      expect(await ok(await upload(t, workspaceId, user, 'id,qty\n7,7\n', csv, { table: 'evolve.items', mode: 'overwrite' }))).toEqual({
        records_written: 1,
        table: 'evolve.items',
      });
      expect(await countOf('evolve.items')).toBe(1);
    });

    test('an Idempotency-Key answers a retry of the same records, plain or gzip, without writing again', async () => {
      const body = ndjsonOf([{ a: 1 }, { a: 2 }]);
      const headers = { 'idempotency-key': `upload-${Date.now()}` };
      const first = await ok(await upload(t, workspaceId, user, body, ndjson, { table: 'idem.once' }, headers));
      const again = await ok(
        await upload(t, workspaceId, user, Bun.gzipSync(body), ndjson, { table: 'idem.once' }, { ...headers, 'content-encoding': 'gzip' }),
      );
      expect(again).toEqual(first);
      expect(await countOf('idem.once')).toBe(2);
      const other = await upload(t, workspaceId, user, ndjsonOf([{ a: 3 }]), ndjson, { table: 'idem.once' }, headers);
      expect(other.status).toBe(409);
      expect(await countOf('idem.once')).toBe(2);
    });

    const locs = async (response: Response) => {
      expect(response.status).toBe(422);
      return (await bodyOf(response)).detail.map((issue: { loc: unknown }) => issue.loc);
    };

    test.each([
      ['no table', 'x', ndjson, {}, [['query', 'table']]],
      ['a bad table name', '{"a":1}\n', ndjson, { table: 'nonamespace' }, [['query', 'table']]],
      ['a line that is no JSON', '{"a":1}\n{"a":\n', ndjson, { table: 'bad.a' }, [['body', 1]]],
      ['a line that is no object', '{"a":1}\n[1]\n', ndjson, { table: 'bad.b' }, [['body', 1]]],
      ['an empty body', '\n\n', ndjson, { table: 'bad.c' }, [['body']]],
      ['a NUL escape', '{"a":"x\\u0000y"}\n', ndjson, { table: 'bad.d' }, [['body', 0, 'a']]],
      ['a number beyond a double', '{"a":1e400}\n', ndjson, { table: 'bad.e' }, [['body', 0, 'a']]],
      ['fields differing in case', '{"a":1,"A":2}\n', ndjson, { table: 'bad.f' }, [['body', 0, 'A']]],
      ['a missing key value', '{"id":1}\n{"other":2}\n', ndjson, { table: 'bad.g', primary_key: 'id' }, [['body', 1, 'id']]],
      ['a repeated key column', '{"id":1}\n', ndjson, { table: 'bad.h', primary_key: 'id,id' }, [['query', 'primary_key']]],
      ['CSV header names differing in case', 'a,A\n1,2\n', csv, { table: 'bad.i' }, [['body', 'A']]],
      ['a NUL byte in CSV', 'a\nx\u0000y\n', csv, { table: 'bad.j' }, [['body']]],
      ['CSV with only a header', 'a,b\n', csv, { table: 'bad.k' }, [['body']]],
      ['a body that is no Parquet', 'not parquet at all', parquet, { table: 'bad.l' }, [['body']]],
      ['an unknown mode', '{"a":1}\n', ndjson, { table: 'bad.m', mode: 'merge' }, [['query', 'mode']]],
    ])('422 for %s, and nothing written', async (_, body, type, params, expected) => {
      expect(await locs(await upload(t, workspaceId, user, body, type, params as Record<string, string>))).toEqual(expected);
      const { tables } = await bodyOf(await t.request(`/api/v1/workspaces/${workspaceId}/query/tables`, { token: user.accessToken }));
      expect(tables.filter((entry: { schema_name: string }) => entry.schema_name === 'bad')).toEqual([]);
    });

    test('a gzip body that is not gzip, or breaks off, is refused', async () => {
      const whole = Bun.gzipSync(ndjsonOf([{ a: 1 }, { a: 2 }]));
      expect(await locs(await upload(t, workspaceId, user, 'plain', ndjson, { table: 'bad.z' }, { 'content-encoding': 'gzip' }))).toEqual([['body']]);
      expect(
        await locs(await upload(t, workspaceId, user, whole.slice(0, whole.length - 8), ndjson, { table: 'bad.z' }, { 'content-encoding': 'gzip' })),
      ).toEqual([['body']]);
      expect(await locs(await upload(t, workspaceId, user, whole, ndjson, { table: 'bad.z' }, { 'content-encoding': 'br' }))).toEqual([
        ['header', 'content-encoding'],
      ]);
    });

    test('JSON bodies are still checked field by field', async () => {
      const response = await t.request(`/api/v1/workspaces/${workspaceId}/push`, {
        method: 'POST',
        json: { table: 'x.y', records: [{ a: 1 }], mode: 'sideways' },
        token: user.accessToken,
      });
      expect(await locs(response)).toEqual([['body', 'mode']]);
    });
  });

describe('table history', () => {
  let t: TestApp, user: TestUser, workspaceId: string;
  beforeAll(async () => ({ t, user, workspaceId } = await withWorkspace('local', { label: 'history' })));
  afterAll(() => t.stop());

  test('lists the snapshots that changed a table, newest first, across a rebuild, with the writer’s note', async () => {
    await pushOk(t, workspaceId, user, { table: 'hist.t', records: [{ a: 1 }] });
    await pushOk(t, workspaceId, user, { table: 'hist.other', records: [{ a: 1 }] });
    await upload(t, workspaceId, user, ndjsonOf([{ a: 'text now' }, { a: 'and more' }]), 'application/x-ndjson', { table: 'hist.t' });
    await pushOk(t, workspaceId, user, { table: 'hist.t', records: [{ a: 'x' }], mode: 'overwrite' });
    const response = await t.request(`/api/v1/workspaces/${workspaceId}/query/tables/hist.t/history`, { token: user.accessToken });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-total-count')).toBe('3');
    const history = await bodyOf(response);
    expect(history.map((entry: { message: string }) => entry.message)).toEqual(['push overwrite 1 rows', 'push append 2 rows', 'push append 1 rows']);
    expect(history.map((entry: { records_written: number }) => entry.records_written)).toEqual([1, 2, 1]);
    expect(history[2].changes).toContain('created');
    expect(history[1].changes).toEqual(expect.arrayContaining(['created', 'dropped', 'inserted']));
    const paged = await bodyOf(await t.request(`/api/v1/query/tables/hist.t/history?workspace=${workspaceId}&limit=1&offset=1`, { token: user.accessToken }));
    expect(paged).toEqual([history[1]]);
    expect((await t.request(`/api/v1/workspaces/${workspaceId}/query/tables/hist.nope/history`, { token: user.accessToken })).status).toBe(404);
  });
});
