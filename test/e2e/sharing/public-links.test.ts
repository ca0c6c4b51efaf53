import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../../support/test-app';
import { backends } from '../../support/backends';
import { bodyOf } from '../../support/http';
import { type TestUser } from '../../support/accounts';
import { createWorkspace, usePlan } from '../../support/workspaces';
import { pushOk } from '../../support/lake';
import { namedQuery } from '../../../src/store/named-query';
import { withUser } from '../../support/fixtures';
import { withWorkspace } from '../../support/fixtures';

const chartRuns = namedQuery<{ workspace_id: string }, { n: number }>(
  'test.public_chart_runs',
  "SELECT count(*) AS n FROM query_usage WHERE workspace_id = :workspace_id AND source = 'chart'",
);

const xss = '<script>alert("x")</script><img src=x onerror=alert(1)>';

// Both catalogs: which tables a chart reads, and their versions, come from the catalog's own tables.
for (const backend of backends) {
  describe(`public links (${backend})`, () => {
    let t: TestApp, owner: TestUser;
    let workspaceId: string;
    let api: string;

    beforeAll(
      async () =>
        ({ t, user: owner } = await withUser(backend, {
          env: { TRUST_PROXY: 'true', PUBLIC_VIEWS_PER_ADDRESS: '1000', PUBLIC_VIEWS_PER_LINK: '1000' },
          label: 'publisher',
        })),
    );

    // Each test has a workspace of its own (its data, its chart `revenue`), whatever ran before it.
    beforeEach(async () => {
      workspaceId = (await createWorkspace(t, owner)).id;
      await usePlan(t, workspaceId, 'business');
      api = `/api/v1/workspaces/${workspaceId}`;
      await pushOk(t, workspaceId, owner, {
        table: 'secret_schema.sales_table',
        records: [
          { month: '2026-01', product: 'apples', revenue: 100, note: xss },
          { month: '2026-02', product: 'apples', revenue: 150, note: 'plain' },
          { month: '2026-01', product: 'pears', revenue: 80, note: '</script><script>alert(2)</script>' },
        ],
      });
      const created = await send('POST', '/charts', {
        name: 'revenue',
        title: 'Revenue by month',
        description: 'Apples and pears',
        sql: 'SELECT month, product, sum(revenue) AS revenue FROM secret_schema.sales_table GROUP BY ALL ORDER BY month',
        chart_type: 'bar',
        config: { x: 'month', y: ['revenue'], series: 'product', stacked: true },
      });
      expect(created.status).toBe(201);
    });
    afterAll(() => t.stop());

    const send = (method: string, path: string, json?: unknown) => t.request(`${api}${path}`, { method, json, token: owner.accessToken });
    const view = (path: string, address = '203.0.113.1') => t.request(path, { headers: { 'x-forwarded-for': address } });
    const publish = async (kind: 'charts' | 'pages', name: string, json: unknown = {}) => {
      const response = await send('POST', `/${kind}/${name}/publish`, json);
      expect(response.status).toBe(201);
      return (await bodyOf(response)).token as string;
    };

    test('a public chart: HTML with the chart drawn as SVG, title, description, data-as-of time, Open Graph tags and downloads; strict headers', async () => {
      const token = await publish('charts', 'revenue');
      const response = await view(`/c/${token}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const policy = response.headers.get('content-security-policy')!;
      expect(policy).toContain("default-src 'none'");
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("style-src 'self'");
      expect(policy).not.toContain('unsafe-inline');
      expect(policy).not.toContain('unsafe-eval');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      const html = await response.text();
      expect(html).toContain('<h1>Revenue by month</h1>');
      expect(html).toContain('Apples and pears');
      expect(html).toMatch(/<svg [^>]*role="img"/);
      expect(html).toMatch(/<path d="M/);
      expect(html).toContain('Data as of <time datetime="');
      expect(html).toContain('<meta property="og:title" content="Revenue by month">');
      expect(html).toContain(`<meta property="og:url" content="${t.backend.config.http.publicBaseUrl}/c/${token}">`);
      expect(html).toContain(`href="/c/${token}/data?format=csv" download`);
      expect(html).toContain('<script src="/assets/echarts.min.js"></script>');
      // No inline script or style: only JSON data blocks and the service's own files.
      expect(html.match(/<script(?![^>]*(src="\/assets\/|type="application\/json"))/g)).toBeNull();
      expect(html).not.toMatch(/ style="/);
      expect(html).not.toContain('<style');
      // Nothing but what the chart shows: no SQL, no table or schema name, no workspace.
      for (const hidden of ['secret_schema', 'sales_table', 'SELECT', workspaceId]) expect(html).not.toContain(hidden);
    });

    test('the chart data as JSON ({title, columns, rows, row_count, refreshed_at}) and as CSV', async () => {
      const token = await publish('charts', 'revenue');
      const data = await bodyOf(await view(`/c/${token}/data`));
      expect(data).toEqual({
        title: 'Revenue by month',
        columns: [
          { name: 'month', type: 'VARCHAR' },
          { name: 'product', type: 'VARCHAR' },
          // sum(bigint) is numeric, as in Postgres.
          { name: 'revenue', type: 'DECIMAL(38,0)' },
        ],
        rows: expect.any(Array),
        row_count: 3,
        refreshed_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      });
      const csv = await view(`/c/${token}/data?format=csv`);
      expect(csv.headers.get('content-type')).toContain('text/csv');
      expect(csv.headers.get('content-disposition')).toBe('attachment; filename="Revenue-by-month.csv"');
      expect((await csv.text()).split('\r\n')[0]).toBe('month,product,revenue');
    });

    test('views are served from the cache while the tables it reads are unchanged (a write to another table runs nothing); a push shows on the next view; the runs count as usage of kind chart', async () => {
      const token = await publish('charts', 'revenue');
      await view(`/c/${token}`);
      await t.services.usageRecorded();
      const before = (await t.infra.store.first(chartRuns, { workspace_id: workspaceId }))!.n;
      await Promise.all(Array.from({ length: 20 }, () => view(`/c/${token}/data`)));
      await view(`/c/${token}`);
      await t.services.usageRecorded();
      expect((await t.infra.store.first(chartRuns, { workspace_id: workspaceId }))!.n).toBe(before);
      // A write to a table the chart does not read changes nothing it shows: no run.
      const firstSeen = (await bodyOf(await view(`/c/${token}/data`))).refreshed_at;
      await pushOk(t, workspaceId, owner, { table: 'secret_schema.other_table', records: [{ id: 1 }] });
      await Promise.all(Array.from({ length: 5 }, () => view(`/c/${token}/data`)));
      const unrelated = await bodyOf(await view(`/c/${token}/data`));
      expect({ rows: unrelated.row_count, refreshed_at: unrelated.refreshed_at }).toEqual({ rows: 3, refreshed_at: firstSeen });
      await t.services.usageRecorded();
      expect((await t.infra.store.first(chartRuns, { workspace_id: workspaceId }))!.n).toBe(before);
      await pushOk(t, workspaceId, owner, { table: 'secret_schema.sales_table', records: [{ month: '2026-03', product: 'plums', revenue: 7, note: 'new' }] });
      const fresh = await bodyOf(await view(`/c/${token}/data`));
      expect(fresh.row_count).toBe(4);
      await t.services.usageRecorded();
      expect((await t.infra.store.first(chartRuns, { workspace_id: workspaceId }))!.n).toBe(before + 1);
      await Promise.all(Array.from({ length: 10 }, () => view(`/c/${token}/data`)));
      await t.services.usageRecorded();
      expect((await t.infra.store.first(chartRuns, { workspace_id: workspaceId }))!.n).toBe(before + 1);
      // A table dropped and made again under the same name is another table: its rows show.
      expect(
        (await t.request(`/api/v1/query/tables/secret_schema/sales_table?workspace=${workspaceId}`, { method: 'DELETE', token: owner.accessToken })).status,
      ).toBe(204);
      await pushOk(t, workspaceId, owner, { table: 'secret_schema.sales_table', records: [{ month: '2027-01', product: 'figs', revenue: 1, note: 'again' }] });
      expect((await bodyOf(await view(`/c/${token}/data`))).rows).toEqual([['2027-01', 'figs', 1]]);
      await t.services.usageRecorded();
      expect((await t.infra.store.first(chartRuns, { workspace_id: workspaceId }))!.n).toBe(before + 2);
    });

    test('XSS in titles, descriptions, markdown and data values never reaches the HTML unescaped', async () => {
      expect(
        (
          await send('POST', '/charts', {
            name: 'notes',
            title: xss,
            description: `"><script>alert(3)</script>`,
            sql: 'SELECT note, revenue FROM secret_schema.sales_table ORDER BY revenue',
            chart_type: 'bar',
            config: { x: 'note', y: ['revenue'] },
          })
        ).status,
      ).toBe(201);
      expect(
        (
          await send('POST', '/charts', {
            name: 'notes-table',
            title: 'Notes',
            sql: 'SELECT note FROM secret_schema.sales_table',
            chart_type: 'table',
            config: {},
          })
        ).status,
      ).toBe(201);
      const markdown = `# Notes\n\n${xss}\n\n[click](javascript:alert(4)) <a href="javascript:alert(5)">x</a>\n\n<iframe src="https://evil.example"></iframe>`;
      expect(
        (await send('POST', '/pages', { name: 'xss', title: xss, description: xss, blocks: [{ markdown }, { chart: 'notes' }, { chart: 'notes-table' }] }))
          .status,
      ).toBe(201);
      for (const path of [`/c/${await publish('charts', 'notes')}`, `/p/${await publish('pages', 'xss')}`]) {
        const html = await (await view(path)).text();
        for (const raw of ['<script>alert', '<img src=x', '</script><script>', 'href="javascript:', '<iframe', '"><script>', 'onerror=alert(1)>']) {
          expect({ path, raw, found: html.includes(raw) }).toEqual({ path, raw, found: false });
        }
        expect(html).toContain('&#60;script&#62;alert');
      }
    });

    test('a public page with three charts and markdown; each chart has its own data download; locked values apply', async () => {
      expect(
        (
          await send('POST', '/saved-queries', {
            name: 'product',
            sql: 'SELECT month, revenue FROM secret_schema.sales_table WHERE product = {{product}} ORDER BY month',
            parameters: [{ name: 'product', type: 'string', default: 'apples' }],
          })
        ).status,
      ).toBe(201);
      expect(
        (
          await send('POST', '/charts', {
            name: 'product-line',
            title: 'One product',
            saved_query: 'product',
            chart_type: 'line',
            config: { x: 'month', y: ['revenue'] },
          })
        ).status,
      ).toBe(201);
      expect(
        (
          await send('POST', '/charts', {
            name: 'share',
            title: 'Share',
            sql: 'SELECT product, sum(revenue) AS revenue FROM secret_schema.sales_table GROUP BY ALL',
            chart_type: 'pie',
            config: { x: 'product', y: ['revenue'] },
          })
        ).status,
      ).toBe(201);
      const page = await send('POST', '/pages', {
        name: 'board',
        title: 'Board',
        blocks: [{ markdown: 'Some **bold** words' }, { chart: 'revenue' }, { chart: 'product-line' }, { chart: 'share' }],
      });
      expect(page.status).toBe(201);
      const token = await publish('pages', 'board', { parameters: { product: 'pears' } });
      const response = await view(`/p/${token}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
      const html = await response.text();
      expect(html.match(/<svg /g)?.length).toBe(3);
      expect(html).toContain('<strong>bold</strong>');
      expect(html).toContain(`href="/p/${token}/charts/1/data?format=csv"`);
      const locked = await bodyOf(await view(`/p/${token}/charts/1/data`));
      expect(locked.rows).toEqual([['2026-01', 80]]);
      expect((await view(`/p/${token}/charts/7/data`)).status).toBe(404);
      // The chart alone uses the saved query's default.
      const alone = await bodyOf(await view(`/c/${await publish('charts', 'product-line')}/data`));
      expect(alone.rows.map((row: unknown[]) => row[1])).toEqual([100, 150]);
      // Locked values must fit the declared types.
      expect((await send('POST', '/charts/product-line/publish', { parameters: { product: 5 } })).status).toBe(422);
    });

    test('unknown, withdrawn, replaced and expired links answer 404 (an HTML page for /c and /p)', async () => {
      const token = await publish('charts', 'revenue', { expires_at: new Date(t.clock.now().getTime() + 60_000).toISOString() });
      expect((await view(`/c/${token}`)).status).toBe(200);
      t.clock.advance(61_000);
      const expired = await view(`/c/${token}`);
      expect(expired.status).toBe(404);
      expect(expired.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(expired.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(await expired.text()).toContain('does not exist, was withdrawn or has expired');
      expect((await view(`/c/${token}/data`)).status).toBe(404);
      for (const path of ['/c/nope', `/c/${'A'.repeat(43)}`, `/p/${'A'.repeat(43)}`, `/p/${token}`]) {
        const response = await view(path);
        expect({ path, status: response.status }).toEqual({ path, status: 404 });
      }
    });

    test('views of unchanged data get the same page; an edit of the chart shows on the next view; views arriving together share their reads yet each sees an unpublish made before it arrived', async () => {
      const token = await publish('charts', 'revenue');
      const first = await (await view(`/c/${token}`)).text();
      const again = await view(`/c/${token}`);
      expect(again.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(again.headers.get('cache-control')).toBe('no-store');
      expect(again.headers.get('x-request-id')).toBeTruthy();
      expect(await again.text()).toBe(first);
      expect((await send('PATCH', '/charts/revenue', { title: 'Revenue, edited', chart_type: 'line' })).status).toBe(200);
      const edited = await (await view(`/c/${token}`)).text();
      expect(edited).toContain('<title>Revenue, edited</title>');
      expect(edited).toContain('"type":"line"');
      // A crowd handed over at once: every view is served, from reads made after it arrived.
      const crowd = await Promise.all(Array.from({ length: 20 }, (_, viewer) => view(`/c/${token}`, `198.51.100.${viewer}`)));
      expect(crowd.map((response) => response.status)).toEqual(Array.from({ length: 20 }, () => 200));
      expect(new Set(await Promise.all(crowd.map((response) => response.text())))).toEqual(new Set([edited]));
      expect((await send('DELETE', '/charts/revenue/publish')).status).toBe(204);
      const afterUnpublish = await Promise.all(Array.from({ length: 5 }, () => view(`/c/${token}`)));
      expect(afterUnpublish.map((response) => response.status)).toEqual([404, 404, 404, 404, 404]);
      const republished = await publish('charts', 'revenue');
      const page = await (await view(`/c/${republished}`)).text();
      expect(page).toContain(`/c/${republished}/data`);
      expect(page).not.toContain(token);
    });

    test('a chart whose query fails now is a 503 page saying nothing about why', async () => {
      expect(
        (
          await send('POST', '/charts', {
            name: 'fragile',
            title: 'Fragile',
            sql: 'SELECT month, revenue FROM secret_schema.sales_table',
            chart_type: 'bar',
            config: { x: 'month', y: ['revenue'] },
          })
        ).status,
      ).toBe(201);
      const token = await publish('charts', 'fragile');
      expect(
        (await t.request(`/api/v1/query/tables/secret_schema/sales_table?workspace=${workspaceId}`, { method: 'DELETE', token: owner.accessToken })).status,
      ).toBe(204);
      const response = await view(`/c/${token}`);
      expect(response.status).toBe(503);
      const html = await response.text();
      expect(html).not.toContain('sales_table');
      const data = await view(`/c/${token}/data`);
      expect(data.status).toBe(503);
      expect(JSON.stringify(await bodyOf(data))).not.toContain('sales_table');
    });

    test('the assets come from the service itself', async () => {
      const library = await t.request('/assets/echarts.min.js');
      expect(library.status).toBe(200);
      expect(library.headers.get('content-type')).toContain('text/javascript');
      expect((await library.text()).length).toBeGreaterThan(500_000);
      expect((await t.request('/assets/public.css')).headers.get('content-type')).toContain('text/css');
      expect((await t.request('/assets/../../package.json')).status).toBe(404);
      expect((await t.request('/assets/nothing.js')).status).toBe(404);
    });
  });
}

describe('public link rate limits', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp('local', { env: { TRUST_PROXY: 'true', PUBLIC_VIEWS_PER_ADDRESS: '3', PUBLIC_VIEWS_PER_LINK: '5' } });
    const { user: owner, workspaceId } = await withWorkspace(t, { label: 'limited' });
    const api = `/api/v1/workspaces/${workspaceId}`;
    expect(
      (
        await t.request(`${api}/charts`, {
          method: 'POST',
          token: owner.accessToken,
          json: { name: 'one', title: 'One', sql: 'SELECT 1 AS x, 2 AS y', chart_type: 'bar', config: { x: 'x', y: ['y'] } },
        })
      ).status,
    ).toBe(201);
    token = (await bodyOf(await t.request(`${api}/charts/one/publish`, { method: 'POST', token: owner.accessToken, json: {} }))).token;
  });
  afterAll(() => t.stop());

  test('per client address and per link: 429 with Retry-After (an HTML page for /c)', async () => {
    const from = (address: string, path = `/c/${token}`) => t.request(path, { headers: { 'x-forwarded-for': address } });
    expect([(await from('198.51.100.1')).status, (await from('198.51.100.1')).status, (await from('198.51.100.1')).status]).toEqual([200, 200, 200]);
    const limited = await from('198.51.100.1');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(limited.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const data = await from('198.51.100.1', `/c/${token}/data`);
    expect(data.status).toBe(429);
    expect((await bodyOf(data)).detail.error.code).toBe('RATE_LIMITED');
    // Other addresses share the link's limit (5 a minute): two more, then refused.
    expect([(await from('198.51.100.2')).status, (await from('198.51.100.3')).status, (await from('198.51.100.4')).status]).toEqual([200, 200, 429]);
    t.clock.advance(120_000);
    expect((await from('198.51.100.1')).status).toBe(200);
  });
});
