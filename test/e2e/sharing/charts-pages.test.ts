import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import type { TestApp } from '../../support/test-app';
import { bodyOf } from '../../support/http';
import { createVerifiedUser, createVerifiedUsers, type TestUser } from '../../support/accounts';
import { addMember, createWorkspace } from '../../support/workspaces';
import { pushOk } from '../../support/lake';
import { withUser } from '../../support/fixtures';

describe('charts and pages', () => {
  let t: TestApp, owner: TestUser, viewer: TestUser, member: TestUser;
  let workspaceId: string;
  let api: string;

  beforeAll(async () => {
    ({ t, user: owner } = await withUser('local', { label: 'charter' }));
    [viewer, member] = await createVerifiedUsers(t, 'chart-viewer', 'chart-member');
  });

  // Each test has a workspace of its own, whatever ran before it.
  beforeEach(async () => {
    workspaceId = (await createWorkspace(t, owner)).id;
    await addMember(t, workspaceId, owner, viewer, 'VIEWER');
    await addMember(t, workspaceId, owner, member, 'MEMBER');
    api = `/api/v1/workspaces/${workspaceId}`;
    await pushOk(t, workspaceId, owner, {
      table: 'web.visits',
      records: [
        { day: '2026-01-01', page: 'home', visits: 10, label: 'a' },
        { day: '2026-01-01', page: 'docs', visits: 4, label: 'b' },
        { day: '2026-01-02', page: 'home', visits: 12, label: 'c' },
      ],
    });
  });
  afterAll(() => t.stop());

  const send = (method: string, path: string, json?: unknown, user = owner) => t.request(`${api}${path}`, { method, json, token: user.accessToken });
  const chart = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    title: `Visits ${name}`,
    sql: 'SELECT day, page, sum(visits) AS visits FROM web.visits GROUP BY ALL ORDER BY day',
    chart_type: 'bar',
    config: { x: 'day', y: ['visits'], series: 'page', stacked: true },
    ...extra,
  });
  /** The chart `daily` and the page `overview` showing it. */
  const dailyAndOverview = async () => {
    expect((await send('POST', '/charts', chart('daily'))).status).toBe(201);
    expect((await send('POST', '/pages', { name: 'overview', title: 'Overview', charts: ['daily'] })).status).toBe(201);
  };

  test('chart CRUD: 201 with the record, get, list, patch, 409 on a taken name, 404 for unknown, 204 on delete', async () => {
    const created = await send('POST', '/charts', chart('daily'), member);
    expect(created.status).toBe(201);
    expect(await bodyOf(created)).toMatchObject({
      name: 'daily',
      title: 'Visits daily',
      chart_type: 'bar',
      saved_query: null,
      parameters: {},
      published: null,
      config: { x: 'day', y: ['visits'], series: 'page', stacked: true },
    });
    expect((await send('POST', '/charts', chart('daily'))).status).toBe(409);
    const list = await send('GET', '/charts', undefined, viewer);
    expect(list.headers.get('x-total-count')).toBe('1');
    expect((await bodyOf(await send('GET', '/charts/daily', undefined, viewer))).title).toBe('Visits daily');
    const patched = await send(
      'PATCH',
      '/charts/daily',
      { title: 'Daily visits', chart_type: 'line', config: { x: 'day', y: ['visits'], series: 'page' } },
      member,
    );
    expect(patched.status).toBe(200);
    expect(await bodyOf(patched)).toMatchObject({ title: 'Daily visits', chart_type: 'line', sql: chart('daily').sql });
    expect((await send('GET', '/charts/nope')).status).toBe(404);
    expect((await send('PATCH', '/charts/nope', { title: 'x' })).status).toBe(404);
    expect((await send('DELETE', '/charts/nope')).status).toBe(404);
    expect((await send('POST', '/charts', chart('doomed'))).status).toBe(201);
    expect((await send('DELETE', '/charts/doomed')).status).toBe(204);
    expect((await send('GET', '/charts/doomed')).status).toBe(404);
  });

  test('config is checked per chart type against the columns the query returns (planned at save time)', async () => {
    const refusals: [Record<string, unknown>, unknown[]][] = [
      [{ config: { x: 'nope', y: ['visits'] } }, ['body', 'config', 'x']],
      [{ config: { x: 'day', y: ['visits', 'nope'] } }, ['body', 'config', 'y', 1]],
      [{ config: { x: 'day', y: ['page'] } }, ['body', 'config', 'y', 0]],
      [{ config: { x: 'day' } }, ['body', 'config', 'y']],
      [{ config: { x: 'day', y: ['visits'], series: 'missing' } }, ['body', 'config', 'series']],
      [{ chart_type: 'pie', config: { x: 'page', y: ['visits', 'visits'] } }, ['body', 'config', 'y']],
      [{ chart_type: 'pie', config: { x: 'page', y: ['visits'], stacked: true } }, ['body', 'config', 'stacked']],
      [{ chart_type: 'number', config: { x: 'day', y: ['visits'] } }, ['body', 'config', 'x']],
      [{ chart_type: 'table', config: { columns: ['day', 'ghost'] } }, ['body', 'config', 'columns', 1]],
      [{ sql: null, config: { x: 'day', y: ['visits'] } }, ['body', 'sql']],
      [{ saved_query: 'q', config: { x: 'day', y: ['visits'] } }, ['body', 'saved_query']],
      [{ sql: 'SELECT {{p}} AS x, 1 AS y', config: { x: 'x', y: ['y'] } }, ['body', 'sql']],
      [{ parameters: { p: 1 } }, ['body', 'parameters', 'p']],
    ];
    for (const [extra, loc] of refusals) {
      const response = await send('POST', '/charts', chart('refused', extra));
      expect({ extra, status: response.status }).toEqual({ extra, status: 422 });
      expect((await bodyOf(response)).detail.map((issue: { loc: unknown[] }) => issue.loc)).toContainEqual(loc);
    }
    expect((await send('POST', '/charts', chart('refused', { chart_type: 'radar' }))).status).toBe(422);
    expect((await send('POST', '/charts', chart('refused', { sql: 'SELECT * FROM web.nothing' }))).status).toBe(400);
    expect((await send('POST', '/charts', chart('refused', { sql: null, saved_query: 'not-saved' }))).status).toBe(404);
    for (const [type, config] of [
      ['pie', { x: 'page', y: ['visits'] }],
      ['number', { y: ['visits'] }],
      ['table', { columns: ['page', 'visits'] }],
      ['table', {}],
      ['scatter', { x: 'visits', y: ['visits'] }],
      ['area', { x: 'day', y: ['visits'], series: 'page', stacked: true }],
    ] as const) {
      const response = await send('POST', '/charts', chart(`ok-${type}-${Object.keys(config).length}`, { chart_type: type, config }));
      expect({ type, status: response.status }).toEqual({ type, status: 201 });
    }
  });

  test('a chart over a saved query: its values checked against the declared types', async () => {
    const saved = await send('POST', '/saved-queries', {
      name: 'visits-of',
      sql: 'SELECT day, visits FROM web.visits WHERE page = {{page}} ORDER BY day',
      parameters: [{ name: 'page', type: 'enum', options: ['home', 'docs'] }],
    });
    expect(saved.status).toBe(201);
    const created = await send('POST', '/charts', {
      name: 'home',
      title: 'Home',
      saved_query: 'visits-of',
      parameters: { page: 'home' },
      chart_type: 'line',
      config: { x: 'day', y: ['visits'] },
    });
    expect(created.status).toBe(201);
    expect(await bodyOf(created)).toMatchObject({ saved_query: 'visits-of', sql: null, parameters: { page: 'home' } });
    const wrong = await send('POST', '/charts', {
      name: 'wrong',
      title: 'W',
      saved_query: 'visits-of',
      parameters: { page: 'blog' },
      chart_type: 'line',
      config: { x: 'day', y: ['visits'] },
    });
    expect(wrong.status).toBe(422);
    expect((await bodyOf(wrong)).detail[0].loc).toEqual(['body', 'parameters', 'page']);
    // Switching the chart to SQL of its own drops the saved query.
    const switched = await send('PATCH', '/charts/home', { sql: 'SELECT day, visits FROM web.visits', parameters: {} });
    expect(await bodyOf(switched)).toMatchObject({ sql: 'SELECT day, visits FROM web.visits', saved_query: null });
  });

  test('pages: charts and markdown blocks in order; unknown charts 404; 409 on a taken name; a shown chart cannot be deleted', async () => {
    expect((await send('POST', '/charts', chart('daily'))).status).toBe(201);
    expect((await send('POST', '/charts', chart('weekly'))).status).toBe(201);
    const created = await send(
      'POST',
      '/pages',
      { name: 'overview', title: 'Overview', description: 'All of it', blocks: [{ markdown: '# Hello' }, { chart: 'daily' }, { chart: 'weekly' }] },
      member,
    );
    expect(created.status).toBe(201);
    expect(await bodyOf(created)).toMatchObject({
      name: 'overview',
      charts: ['daily', 'weekly'],
      blocks: [{ markdown: '# Hello' }, { chart: 'daily' }, { chart: 'weekly' }],
      published: null,
    });
    const simple = await send('POST', '/pages', { name: 'simple', title: 'Simple', charts: ['weekly', 'daily'] });
    expect((await bodyOf(simple)).blocks).toEqual([{ chart: 'weekly' }, { chart: 'daily' }]);
    expect((await send('POST', '/pages', { name: 'overview', title: 'Again', charts: [] })).status).toBe(409);
    const unknown = await send('POST', '/pages', { name: 'broken', title: 'Broken', charts: ['ghost'] });
    expect(unknown.status).toBe(404);
    expect((await send('POST', '/pages', { name: 'mismatch', title: 'M', charts: ['weekly'], blocks: [{ chart: 'daily' }] })).status).toBe(422);
    expect((await send('POST', '/pages', { name: 'empty', title: 'E' })).status).toBe(422);
    expect((await send('GET', '/pages', undefined, viewer)).headers.get('x-total-count')).toBe('2');
    const patched = await send('PATCH', '/pages/simple', { title: 'Simpler', charts: ['daily'] });
    expect(await bodyOf(patched)).toMatchObject({ title: 'Simpler', charts: ['daily'], description: null });
    const inUse = await send('DELETE', '/charts/weekly');
    expect(inUse.status).toBe(409);
    expect((await bodyOf(inUse)).detail.error.message).toContain('overview');
    expect((await send('GET', '/pages/nope')).status).toBe(404);
    expect((await send('DELETE', '/pages/simple')).status).toBe(204);
    expect((await send('DELETE', '/pages/simple')).status).toBe(404);
  });

  test('publishing: 201 with a 256-bit token and its URL, again rotates it, unpublish 204, expiry in the past 422; the record shows the state only', async () => {
    await dailyAndOverview();
    const first = await send('POST', '/charts/daily/publish', {}, member);
    expect(first.status).toBe(201);
    const published = await bodyOf(first);
    expect(published.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(published.url).toBe(`${t.backend.config.http.publicBaseUrl}/c/${published.token}`);
    expect(published.expires_at).toBeNull();
    const record = await bodyOf(await send('GET', '/charts/daily'));
    expect(record.published).toEqual({ published_at: published.published_at, expires_at: null });
    expect(JSON.stringify(record)).not.toContain(published.token);
    const again = await bodyOf(await send('POST', '/charts/daily/publish', { expires_at: '2099-01-01T00:00:00Z' }));
    expect(again.token).not.toBe(published.token);
    expect(again.expires_at).toBe('2099-01-01T00:00:00.000Z');
    expect((await t.request(`/c/${published.token}/data`)).status).toBe(404);
    expect((await t.request(`/c/${again.token}/data`)).status).toBe(200);
    const past = await send('POST', '/charts/daily/publish', { expires_at: '2000-01-01T00:00:00Z' });
    expect(past.status).toBe(422);
    expect((await bodyOf(past)).detail[0].loc).toEqual(['body', 'expires_at']);
    expect((await send('POST', '/charts/daily/publish', { parameters: { nope: 1 } })).status).toBe(422);
    expect((await send('DELETE', '/charts/daily/publish', undefined, member)).status).toBe(204);
    expect((await t.request(`/c/${again.token}/data`)).status).toBe(404);
    expect((await bodyOf(await send('GET', '/charts/daily'))).published).toBeNull();
    expect((await send('POST', '/charts/nope/publish', {})).status).toBe(404);
    const page = await bodyOf(await send('POST', '/pages/overview/publish'));
    expect(page.url).toBe(`${t.backend.config.http.publicBaseUrl}/p/${page.token}`);
    expect((await t.request(`/p/${page.token}`)).status).toBe(200);
    expect((await send('DELETE', '/pages/overview/publish')).status).toBe(204);
    expect((await t.request(`/p/${page.token}`)).status).toBe(404);
  });

  test('roles: VIEWER reads but cannot create, change, publish or delete; a stranger is refused', async () => {
    await dailyAndOverview();
    expect((await send('POST', '/charts', chart('by-viewer'), viewer)).status).toBe(403);
    expect((await send('PATCH', '/charts/daily', { title: 'x' }, viewer)).status).toBe(403);
    expect((await send('POST', '/charts/daily/publish', {}, viewer)).status).toBe(403);
    expect((await send('DELETE', '/charts/daily/publish', undefined, viewer)).status).toBe(403);
    expect((await send('POST', '/pages', { name: 'v', title: 'V', charts: [] }, viewer)).status).toBe(403);
    expect((await send('DELETE', '/pages/overview', undefined, viewer)).status).toBe(403);
    const stranger = await createVerifiedUser(t, 'chart-stranger');
    expect((await send('GET', '/charts', undefined, stranger)).status).toBe(403);
    expect((await send('GET', '/pages/overview', undefined, stranger)).status).toBe(403);
  });
});
