import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../../support/backends';
import type { TestApp } from '../../support/test-app';
import { bodyOf } from '../../support/http';
import { createApiKey, createVerifiedUser, type TestUser } from '../../support/accounts';
import { addMember } from '../../support/workspaces';
import { pushOk, query, runQuery } from '../../support/lake';
import { workspaceDataPrefix } from '../../../src/engine/catalog-attachment';
import { withWorkspace } from '../../support/fixtures';

for (const backend of backends) {
  describe(`tables on ${backend}`, () => {
    let t: TestApp, user: TestUser;
    let workspace: { id: string; slug: string };
    let apiKey: string;

    beforeAll(async () => {
      ({ t, user, workspace } = await withWorkspace(backend, { label: 'tables' }));
      apiKey = await createApiKey(t, user, 'tables');
      await pushOk(t, workspace.id, user, {
        table: 'sales.orders',
        primary_key: ['id'],
        records: Array.from({ length: 120 }, (_, id) => ({ id, amount: id * 1.5, region: id % 2 ? 'eu' : 'us' })),
      });
      await pushOk(t, workspace.id, user, { table: 'sales.orders', primary_key: ['id'], records: [{ id: 0, amount: 0, region: 'eu', note: 'fixed' }] });
    });
    afterAll(() => t.stop());

    const expectedEntry = { name: 'orders', schema_name: 'sales', row_count: 120, size_bytes: expect.any(Number), column_count: 4 };

    test('the three listing endpoints agree: API key, access token with id or slug, and the workspace path', async () => {
      const viaKey = await t.request(`/api/v1/execute/tables?workspace=${workspace.id}`, { headers: { 'x-api-key': apiKey } });
      const viaToken = await t.request(`/api/v1/query/tables?workspace=${workspace.slug}`, { token: user.accessToken });
      const viaPath = await t.request(`/api/v1/workspaces/${workspace.id}/query/tables`, { token: user.accessToken });
      for (const response of [viaKey, viaToken, viaPath]) {
        expect(response.status).toBe(200);
        const { tables } = await bodyOf(response);
        expect(tables).toContainEqual(expectedEntry);
        expect(tables.find((entry: { name: string }) => entry.name === 'orders').size_bytes).toBeGreaterThan(0);
      }
    });

    test('without ?workspace= the listing uses the caller’s first workspace', async () => {
      expect((await bodyOf(await t.request('/api/v1/query/tables', { token: user.accessToken }))).tables).toContainEqual(expectedEntry);
    });

    test('/query/tables takes access tokens only; /execute/tables takes API keys only', async () => {
      const keyOnQuery = await t.request('/api/v1/query/tables', { headers: { authorization: `Bearer ${apiKey}` } });
      expect(keyOnQuery.status).toBe(401);
      const tokenOnExecute = await t.request('/api/v1/execute/tables', { token: user.accessToken });
      expect(tokenOnExecute.status).toBe(401);
      expect((await bodyOf(tokenOnExecute)).detail.error.code).toBe('INVALID_API_KEY');
      expect((await bodyOf(await t.request('/api/v1/execute/tables'))).detail.error.code).toBe('MISSING_API_KEY');
    });

    test('metadata: columns, sizes, key, times and snapshots, in both path forms', async () => {
      for (const path of [
        `/api/v1/query/tables/sales.orders/metadata?workspace=${workspace.id}`,
        `/api/v1/workspaces/${workspace.id}/query/tables/sales.orders/metadata`,
      ]) {
        const response = await t.request(path, { token: user.accessToken });
        expect(response.status).toBe(200);
        const detail = await bodyOf(response);
        expect(detail).toMatchObject({
          ...expectedEntry,
          table: 'sales.orders',
          file_count: expect.any(Number),
          primary_key: ['id'],
          columns: [
            { name: 'id', type: 'BIGINT', nullable: true },
            { name: 'amount', type: 'DOUBLE', nullable: true },
            { name: 'region', type: 'VARCHAR', nullable: true },
            { name: 'note', type: 'VARCHAR', nullable: true },
          ],
          current_snapshot: expect.any(Number),
        });
        expect(detail.updated_at >= detail.created_at).toBe(true);
        expect(detail.earliest_snapshot_at <= detail.created_at).toBe(true);
      }
    });

    test('an unknown table is 404 NOT_FOUND', async () => {
      const response = await t.request(`/api/v1/workspaces/${workspace.id}/query/tables/sales.nothing/metadata`, { token: user.accessToken });
      expect(response.status).toBe(404);
      expect((await bodyOf(response)).detail.error.code).toBe('NOT_FOUND');
      expect((await t.request(`/api/v1/query/tables/sales/nothing?workspace=${workspace.id}`, { method: 'DELETE', token: user.accessToken })).status).toBe(404);
    });

    test('a VIEWER may list but not drop; dropping removes the table and purges its files', async () => {
      await pushOk(t, workspace.id, user, { table: 'scratch.doomed', records: [{ a: 1 }, { a: 2 }] });
      await pushOk(t, workspace.id, user, { table: 'scratch.doomed', mode: 'overwrite', records: [{ a: 3 }] });
      const viewer = await createVerifiedUser(t, 'viewer');
      await addMember(t, workspace.id, user, viewer, 'VIEWER');
      expect((await t.request(`/api/v1/workspaces/${workspace.id}/query/tables`, { token: viewer.accessToken })).status).toBe(200);
      const refused = await t.request(`/api/v1/query/tables/scratch/doomed?workspace=${workspace.id}`, { method: 'DELETE', token: viewer.accessToken });
      expect(refused.status).toBe(403);
      expect((await bodyOf(refused)).detail.error.code).toBe('INSUFFICIENT_ROLE');

      const tablePrefix = `${workspaceDataPrefix(workspace.id)}scratch/doomed/`;
      expect((await t.infra.lake.list(tablePrefix)).length).toBeGreaterThanOrEqual(2);
      expect((await t.request(`/api/v1/query/tables/scratch/doomed?workspace=${workspace.id}`, { method: 'DELETE', token: user.accessToken })).status).toBe(
        204,
      );
      expect(await t.infra.lake.list(tablePrefix)).toEqual([]);
      const { tables } = await bodyOf(await t.request(`/api/v1/workspaces/${workspace.id}/query/tables`, { token: user.accessToken }));
      expect(tables.map((entry: { name: string }) => entry.name)).not.toContain('doomed');
      expect(runQuery(t, workspace.id, 'SELECT * FROM scratch.doomed')).rejects.toMatchObject({ code: 'UNDEFINED_TABLE' });
      // The name can be used again, with no trace of the old table.
      await pushOk(t, workspace.id, user, { table: 'scratch.doomed', records: [{ b: 'new' }] });
      expect(await query(t, workspace.id, 'SELECT * FROM scratch.doomed')).toEqual([{ b: 'new' }]);
    });
  });
}
