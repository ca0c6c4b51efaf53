import { describe, expect, test } from 'bun:test';
import { backends, createTestBackend } from '../support/backends';
import { openStore } from '../../src/store/open-store';
import { migrate } from '../../src/store/migrations';
import { createLogger } from '../../src/logging/logger';
import { checkJobCapacity } from '../../src/jobs/job-capacity';

// A workspace's jobs share one shard's QUERY_JOB_CONCURRENCY slots with the other workspaces of that
// shard: a plan's share must stay below them, and a worker says so as it starts when one does not.
for (const backend of backends) {
  describe(`query-job capacity against the plans, on ${backend}`, () => {
    test('the default slots leave room beside every plan; fewer name each plan that would take them all, and what to set', async () => {
      const env = await createTestBackend(backend);
      const store = openStore(env.config.metadata);
      try {
        await migrate(store);
        const warnings = async (slots: number) => {
          const lines: Record<string, unknown>[] = [];
          await checkJobCapacity(store, slots, createLogger({ level: 'info', sink: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) }));
          return lines.map(({ level, plans, query_job_concurrency, hint }) => ({ level, plans, query_job_concurrency, hint }));
        };
        expect(await warnings(env.config.jobs.concurrency)).toEqual([]);
        expect(await warnings(5)).toEqual([]);
        expect(await warnings(4)).toEqual([
          { level: 'warn', plans: 'business: 4, enterprise: 4', query_job_concurrency: 4, hint: expect.stringContaining('QUERY_JOB_CONCURRENCY above 4') },
        ]);
        expect(await warnings(2)).toEqual([
          { level: 'warn', plans: 'team: 2, business: 4, enterprise: 4', query_job_concurrency: 2, hint: expect.stringContaining('above 4') },
        ]);
      } finally {
        await store.close();
        await env.cleanup();
      }
    });
  });
}
