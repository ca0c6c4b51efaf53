import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../../support/test-app';
import type { TestUser } from '../../support/accounts';
import { bodyOf } from '../../support/http';
import { uniqueSlug } from '../../support/workspaces';
import { locationRule } from '../../../src/api/openapi/created-location';
import { withUser } from '../../support/fixtures';

/** A 201 names what it created: its Location is where a client finds it again. */
describe('Location on 201 answers', () => {
  let t: TestApp, owner: TestUser;
  beforeAll(async () => ({ t, user: owner } = await withUser('local', { label: 'located' })));
  afterAll(() => t.stop());

  const post = async (path: string, json: unknown) => {
    const response = await t.request(path, { method: 'POST', json, token: owner.accessToken });
    expect(response.status).toBe(201);
    return { location: response.headers.get('location')!, body: await bodyOf(response) };
  };

  test('a created workspace, chart and page can be read back at their Location; a published link is its URL', async () => {
    const workspace = await post('/api/v1/workspaces', { name: 'Located', slug: uniqueSlug('located') });
    expect(workspace.location).toBe(`/api/v1/workspaces/${workspace.body.id}`);
    expect((await t.request(workspace.location, { token: owner.accessToken })).status).toBe(200);

    const base = workspace.location;
    const chart = await post(`${base}/charts`, { name: 'numbers', title: 'Numbers', sql: 'SELECT 1 AS n', chart_type: 'number', config: { y: ['n'] } });
    expect(chart.location).toBe(`${base}/charts/numbers`);
    expect((await bodyOf(await t.request(chart.location, { token: owner.accessToken }))).name).toBe('numbers');

    const page = await post(`${base}/pages`, { name: 'board', title: 'Board', charts: ['numbers'] });
    expect(page.location).toBe(`${base}/pages/board`);
    const published = await post(`${base}/charts/numbers/publish`, {});
    expect(published.location).toBe(published.body.url);

    const key = await post('/api/v1/auth/api-keys', { name: 'located' });
    expect(key.location).toBe(`/api/v1/auth/api-keys/${key.body.id}`);
  });

  test('the rule reads the route table: an item route under the collection, or the answer’s own URL', () => {
    const created = (properties: string[]) => ({ 201: { properties: Object.fromEntries(properties.map((name) => [name, {}])) } });
    const routes = [
      { method: 'POST', path: '/things', hooks: { response: created(['id', 'name']) } },
      { method: 'GET', path: '/things/:thing_id', hooks: {} },
      { method: 'POST', path: '/things/:thing_id/share', hooks: { response: created(['url']) } },
      { method: 'POST', path: '/signals', hooks: { response: created(['message']) } },
    ];
    expect(locationRule(routes[0]!, routes)).toEqual({ kind: 'item', itemPath: '/things/:thing_id', field: 'id' });
    expect(locationRule(routes[2]!, routes)).toEqual({ kind: 'url' });
    expect(locationRule(routes[3]!, routes)).toBeUndefined();
  });
});
