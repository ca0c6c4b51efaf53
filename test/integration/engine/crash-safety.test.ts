import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { resolve } from 'node:path';
import { backends } from '../../support/backends';
import type { TestApp } from '../../support/test-app';
import type { TestUser } from '../../support/accounts';
import { pushOk, query } from '../../support/lake';
import { serviceEnvOf } from '../../support/service-env';
import { withWorkspace } from '../../support/fixtures';

const crashScript = resolve(import.meta.dir, '..', '..', 'support', 'crash-push.ts');
const pushedRows = 200_000;

for (const backend of backends) {
  describe(`a push killed midway on ${backend}`, () => {
    let t: TestApp, user: TestUser, workspaceId: string;
    beforeAll(async () => ({ t, user, workspaceId } = await withWorkspace(backend, { label: 'crash' })));
    afterAll(() => t.stop());

    test('leaves the table exactly as it was, and the table takes pushes afterwards', () => killMidway('crash.target', []), 120_000);

    // Many pushes queued on a table commit as one: a kill leaves all of them or none, never a part of the group.
    test('a group of pushes killed midway leaves none of them or all', () => killMidway('crash.grouped', ['group']), 120_000);

    async function killMidway(table: string, mode: string[]): Promise<void> {
      await pushOk(t, workspaceId, user, { table, records: [{ id: 1, payload: 'before', value: 1.5 }] });
      const snapshot = async () => query(t, workspaceId, `SELECT count(*)::BIGINT AS n, sum(id)::BIGINT AS ids FROM ${table}`);
      const before = await snapshot();
      // The engine in this process must not hold the catalog while the other process writes.
      await t.services.engine.engines.release(workspaceId);

      let killedMidway = 0;
      for (const delayMs of [400, 900, 1500, 2500]) {
        const child = Bun.spawn([process.execPath, crashScript, workspaceId, table, String(pushedRows), ...mode], {
          env: { ...process.env, ...serviceEnvOf(t) },
          stdout: 'pipe',
          stderr: 'pipe',
        });
        await Bun.sleep(delayMs);
        child.kill('SIGKILL');
        await child.exited;
        const output = await new Response(child.stdout).text();
        const after = await snapshot();
        await t.services.engine.engines.release(workspaceId);
        // All of the push or none of it, never a part. It may also commit just before the kill and die
        // before it can say so.
        const added = Number(after[0]!.n) - Number(before[0]!.n);
        expect([0, pushedRows]).toContain(added);
        if (added === pushedRows) break;
        expect(output).not.toContain('done');
        expect(after).toEqual(before);
        killedMidway += 1;
      }
      expect(killedMidway).toBeGreaterThan(0);
      const result = await pushOk(t, workspaceId, user, { table, records: [{ id: 2, payload: 'after', value: 2 }] });
      expect(result.records_written).toBe(1);
    }
  });
}
