import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bodyOf } from '../../support/http';
import { CliHome, expectExit, startCliService } from '../../support/cli';
import { createWorkspace } from '../../support/workspaces';
import { parquetOf } from '../../support/uploads';
import { pushOk } from '../../support/lake';
import { createApiKey, type TestUser } from '../../support/accounts';
import { withWorkspace } from '../../support/fixtures';

describe('oxbow workspaces, push, tables, query and usage against the running service', () => {
  let service: Awaited<ReturnType<typeof startCliService>>;
  let home: CliHome;
  let user: TestUser;
  let workspace: { id: string; slug: string };
  let other: { id: string; slug: string };
  beforeAll(async () => {
    service = await startCliService();
    ({ user, workspace } = await withWorkspace(service.t, { label: 'cli-data', plan: 'business' }));
    other = await createWorkspace(service.t, user, 'cli-other');
    home = new CliHome(service.server.url);
    expectExit(await home.run(['login', '--api-key', await createApiKey(service.t, user, 'cli tests')]), 0);
  });
  afterAll(async () => {
    home?.remove();
    await service?.stop();
  });

  const file = (name: string, content: string | Uint8Array) => {
    const path = join(home.dir, name);
    writeFileSync(path, content);
    return path;
  };

  // Tests run in any order and share the home: each names the workspace it works in first.
  test('workspaces ls and use: commands then work in the chosen one', async () => {
    const list = expectExit(await home.run(['workspaces', 'ls']), 0);
    const slugs = list.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t')[1]);
    expect(slugs).toEqual(expect.arrayContaining([workspace.slug, other.slug]));
    const json = JSON.parse(expectExit(await home.run(['workspaces', 'ls', '--json']), 0).stdout);
    expect(json.map((entry: { id: string }) => entry.id)).toEqual(expect.arrayContaining([workspace.id, other.id]));
    expectExit(await home.run(['workspaces', 'use', workspace.slug]), 0);
    expect(readFileSync(home.configFile, 'utf8')).toContain(`workspace = "${workspace.id}"`);
    expect((await home.run(['workspaces', 'use', 'no-such-workspace'])).code).toBe(5);
  });

  test('push of NDJSON, CSV (gzip) and Parquet files, then tables ls, describe and history', async () => {
    expectExit(await home.run(['workspaces', 'use', workspace.slug]), 0);
    const ndjson = file(
      'events.ndjson',
      Array.from({ length: 250 }, (_, i) => JSON.stringify({ id: i, kind: i % 2 ? 'click' : 'view', at: '2026-11-21T10:00:00Z' })).join('\n'),
    );
    const pushed = JSON.parse(expectExit(await home.run(['push', 'web.events', ndjson, '--chunk-rows', '100', '--json']), 0).stdout);
    expect(pushed).toMatchObject({ table: 'web.events', records_written: 250, files: [{ format: 'ndjson', chunks: 3, records_written: 250 }] });
    const csv = file('people.csv.gz', Bun.gzipSync('id,name,city\n1,"Smith, Ann",Paris\n2,Bob,"New\nYork"\n3,Cy,Oslo\n'));
    expect(expectExit(await home.run(['push', 'crm.people', csv, '--primary-key', 'id']), 0).stdout).toBe('crm.people\t3\n');
    const upsert = file('people-update.csv', 'id,name,city\n2,Bob,Boston\n4,Di,Rome\n');
    expectExit(await home.run(['push', 'crm.people', upsert, '--gzip']), 0);
    const parquet = file('sales.parquet', await parquetOf('SELECT range AS id, range * 1.5 AS amount FROM range(40)'));
    expectExit(await home.run(['push', 'shop.sales', parquet, parquet, '--mode', 'overwrite']), 0);
    const packed = file('sales.parquet.gz', Bun.gzipSync(readFileSync(parquet)));
    expect(JSON.parse(expectExit(await home.run(['push', 'shop.packed', packed, '--json']), 0).stdout).records_written).toBe(40);

    const tables = JSON.parse(expectExit(await home.run(['tables', 'ls', '--json']), 0).stdout);
    const rows = Object.fromEntries(
      tables.map((entry: { schema_name: string; name: string; row_count: number }) => [`${entry.schema_name}.${entry.name}`, entry.row_count]),
    );
    expect(rows).toMatchObject({ 'web.events': 250, 'crm.people': 4, 'shop.sales': 80 });
    const describe = expectExit(await home.run(['tables', 'describe', 'crm.people']), 0);
    expect(describe.stdout.trim().split('\n')).toEqual(['id\tBIGINT\ttrue', 'name\tVARCHAR\ttrue', 'city\tVARCHAR\ttrue']);
    const detail = JSON.parse(expectExit(await home.run(['tables', 'describe', 'crm.people', '--json']), 0).stdout);
    expect(detail.primary_key).toEqual(['id']);
    const history = JSON.parse(expectExit(await home.run(['tables', 'history', 'shop.sales', '--json']), 0).stdout);
    expect(history.map((entry: { message: string }) => entry.message)).toEqual(['push append 40 rows', 'push overwrite 40 rows']);
    expect((await home.run(['tables', 'describe', 'crm.nothing'])).code).toBe(5);
    const missing = await home.run(['push', 'crm.people', join(home.dir, 'nope.csv')]);
    expect(missing.code).toBe(2);
    const bad = await home.run(['push', 'crm.people', file('bad.ndjson', '{"id":1}\n{"id":\n')]);
    expect(bad.code).toBe(6);
    expect(bad.stderr).toContain('Line 2 is not valid JSON');
    // Each chunk went as a request of its own, with its own idempotency key: one snapshot each.
    const chunks = await bodyOf(await service.t.request(`/api/v1/workspaces/${workspace.id}/query/tables/web.events/history`, { token: user.accessToken }));
    expect(chunks.map((entry: { records_written: number }) => entry.records_written)).toEqual([50, 100, 100]);
  });

  test('query: formats, a file, a table that fits a narrow terminal, and errors with the API’s hint', async () => {
    expectExit(await home.run(['workspaces', 'use', workspace.id]), 0);
    const sql = "SELECT range AS n, 'row ' || range AS label, range % 2 = 0 AS even FROM range(3) ORDER BY n";
    expect(expectExit(await home.run(['query', sql]), 0).stdout).toBe('n\tlabel\teven\n0\trow 0\ttrue\n1\trow 1\tfalse\n2\trow 2\ttrue\n');
    expect(expectExit(await home.run(['query', sql, '--format', 'csv']), 0).stdout).toBe('n,label,even\n0,row 0,true\n1,row 1,false\n2,row 2,true\n');
    expect(
      expectExit(await home.run(['query', sql, '--format', 'ndjson']), 0)
        .stdout.trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { n: 0, label: 'row 0', even: true },
      { n: 1, label: 'row 1', even: false },
      { n: 2, label: 'row 2', even: true },
    ]);
    expect(JSON.parse(expectExit(await home.run(['query', sql, '--json']), 0).stdout)).toHaveLength(3);
    expect(JSON.parse(expectExit(await home.run(['query', 'SELECT 1 AS one WHERE false', '--format', 'json']), 0).stdout)).toEqual([]);
    await pushOk(service.t, workspace.id, user, {
      table: 'query.people',
      records: [
        { name: 'Di', city: 'Rome' },
        { name: 'Ed', city: 'Oslo' },
      ],
    });
    const path = file('q.sql', "SELECT name FROM query.people WHERE city = 'Rome'");
    expect(expectExit(await home.run(['query', '-f', path]), 0).stdout).toBe('name\nDi\n');

    const wide =
      "SELECT 'a fairly long text that will not fit in a narrow terminal at all' AS description, 12345 AS number, 'another long value that must be cut' AS other";
    const terminal = expectExit(await home.runInTerminal(['query', wide], 50), 0);
    const lines = terminal.stdout.split(/\r?\n/).filter((line) => line.trim());
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines.slice(0, 3)) expect(Bun.stringWidth(line)).toBeLessThanOrEqual(50);
    expect(terminal.stdout).toContain('…');
    expect(terminal.stdout).toContain('12345');

    const failed = await home.run(['query', 'SELECT * FROM query.peple']);
    expect(failed.code).toBe(6);
    expect(failed.stderr).toMatch(/^error: .*peple/m);
    expect(failed.stderr).toMatch(/^hint: .*query\.people/m);
    const asJson = JSON.parse((await home.run(['query', 'SELECT * FROM query.peple', '--json'])).stderr);
    expect(asJson.error).toMatchObject({ code: 'UNDEFINED_TABLE', status: 400, exit_code: 6 });
    expect((await home.run(['query'])).code).toBe(2);
    expect((await home.run(['query', 'SELECT 1', '--format', 'xml'])).code).toBe(2);
    // The other workspace, by --workspace, has none of these tables.
    expect((await home.run(['query', 'SELECT count(*) FROM query.people', '--workspace', other.slug])).code).toBe(6);
  });

  test('usage and whoami in plain lines and JSON', async () => {
    expectExit(await home.run(['workspaces', 'use', workspace.slug]), 0);
    expectExit(await home.run(['query', 'SELECT 1']), 0);
    const usage = expectExit(await home.run(['usage']), 0);
    expect(usage.stdout).toContain('plan_tier\tbusiness');
    const json = JSON.parse(expectExit(await home.run(['usage', '--json']), 0).stdout);
    expect(json.plan_tier).toBe('business');
    expect(json.queries_used).toBeGreaterThan(0);
    const whoami = JSON.parse(expectExit(await home.run(['whoami', '--json']), 0).stdout);
    expect(whoami).toMatchObject({ user: { email: user.email }, workspace_id: workspace.id });
  });
});
