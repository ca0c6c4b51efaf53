import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../support/backends';
import type { TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import type { TestUser } from '../support/accounts';
import { createWorkspace, type TestPlan, addPlan, usePlan } from '../support/workspaces';
import { push, pushOk } from '../support/lake';
import { ndjsonOf } from '../support/uploads';
import { ConnectorQuota } from '../../src/usage/connector-quota';
import { withUser } from '../support/fixtures';

// A plan of 20 kB of storage: a few pushes reach it.
const tinyPlan: TestPlan = { id: 'tiny', name: 'Tiny', storage_limit_gb: 0.00002, connector_limit: 1 };

const records = (count: number, from = 0) =>
  Array.from({ length: count }, (_, index) => ({ id: from + index, note: `record ${from + index} ${'x'.repeat(40)}`, amount: (from + index) * 1.25 }));

for (const backend of backends) {
  describe(`storage limit on ${backend}`, () => {
    let t: TestApp, user: TestUser;
    beforeAll(async () => {
      ({ t, user } = await withUser(backend, { label: 'storage' }));
      await addPlan(t, tinyPlan);
    });
    afterAll(() => t.stop());

    const tableBytes = async (workspaceId: string) =>
      (await bodyOf(await t.request(`/api/v1/workspaces/${workspaceId}/query/tables`, { token: user.accessToken }))).tables.reduce(
        (sum: number, table: { size_bytes: number }) => sum + table.size_bytes,
        0,
      );
    const used = (workspaceId: string) => t.services.usage.storage.use(workspaceId).then((use) => use.usedBytes);

    test('storage is the catalog’s file sizes: the live files, those kept for time travel, and none of a dropped table', async () => {
      const { id } = await createWorkspace(t, user, 'storage');
      expect(await used(id)).toBe(0);
      await pushOk(t, id, user, { table: 'raw.events', records: records(200) });
      const live = await tableBytes(id);
      expect(live).toBeGreaterThan(0);
      expect(await used(id)).toBe(live);
      await pushOk(t, id, user, { table: 'raw.events', records: records(50), mode: 'overwrite' });
      const afterOverwrite = await used(id);
      expect(await tableBytes(id)).toBeLessThan(afterOverwrite);
      expect(afterOverwrite).toBe(live + (await tableBytes(id)));
      expect((await t.request(`/api/v1/query/tables/raw/events?workspace=${id}`, { method: 'DELETE', token: user.accessToken })).status).toBe(204);
      expect(await used(id)).toBe(0);
    });

    test('a push into a workspace at its plan’s storage limit is refused with 403 STORAGE_LIMIT_REACHED, and writes nothing', async () => {
      const { id } = await createWorkspace(t, user, 'full');
      await usePlan(t, id, 'tiny');
      let pushes = 0;
      while ((await used(id)) < 20_000) {
        await pushOk(t, id, user, { table: 'raw.events', records: records(100, pushes * 100) });
        pushes += 1;
        expect(pushes).toBeLessThan(50);
      }
      const before = await tableBytes(id);
      const refused = await push(t, id, user, { table: 'raw.other', records: records(1) });
      expect(refused.status).toBe(403);
      const error = (await bodyOf(refused)).detail.error;
      expect(error.code).toBe('STORAGE_LIMIT_REACHED');
      expect(error.message).toContain('Tiny plan');
      expect(await tableBytes(id)).toBe(before);
      // An upload is refused the same way, whatever its format.
      for (const [body, type] of [
        [ndjsonOf(records(3)), 'application/x-ndjson'],
        ['id,note\n1,x\n', 'text/csv'],
      ] as const) {
        const upload = await t.request(`/api/v1/workspaces/${id}/push?table=raw.uploaded`, {
          method: 'POST',
          body,
          token: user.accessToken,
          headers: { 'content-type': type },
        });
        expect(upload.status).toBe(403);
        expect((await bodyOf(upload)).detail.error.code).toBe('STORAGE_LIMIT_REACHED');
      }
      expect(await tableBytes(id)).toBe(before);
      expect(
        (await bodyOf(await t.request(`/api/v1/workspaces/${id}/query/tables`, { token: user.accessToken }))).tables.map(
          (table: { name: string }) => table.name,
        ),
      ).toEqual(['events']);

      // Room again once the data goes; and the dashboard says where it stands.
      const dashboard = await bodyOf(await t.request(`/api/v1/workspaces/${id}/usage/dashboard`, { token: user.accessToken }));
      expect(dashboard).toMatchObject({ plan_tier: 'tiny', storage_limit_gb: 0.00002, storage_remaining_gb: 0 });
      expect(dashboard.storage_used_gb).toBeGreaterThanOrEqual(0.00002);
      expect((await t.request(`/api/v1/query/tables/raw/events?workspace=${id}`, { method: 'DELETE', token: user.accessToken })).status).toBe(204);
      expect((await push(t, id, user, { table: 'raw.other', records: records(1) })).status).toBe(200);
    });

    test('the connector limit: the count the connections feature provides against the plan (none on business)', async () => {
      const { id } = await createWorkspace(t, user, 'connectors');
      await usePlan(t, id, 'tiny');
      const counts = new Map([[id, 0]]);
      const quota = new ConnectorQuota(t.infra.store, async (workspaceId) => counts.get(workspaceId) ?? 0);
      await quota.assertRoom(id);
      counts.set(id, 1);
      expect(await quota.assertRoom(id).catch((error: unknown) => error)).toMatchObject({ code: 'CONNECTOR_LIMIT_REACHED', status: 403 });
      await usePlan(t, id, 'business');
      counts.set(id, 500);
      await quota.assertRoom(id);
    });
  });
}
