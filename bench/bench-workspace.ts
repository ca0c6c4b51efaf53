import { startHttpServer, type HttpServer } from '../src/api/server';
import { freePort } from '../src/process/ports';
import { namedQuery } from '../src/store/named-query';
import type { Store } from '../src/store/store';
import { createVerifiedUser, type TestUser } from '../test/support/accounts';
import type { TestApp } from '../test/support/test-app';
import { createWorkspace } from '../test/support/workspaces';

// A plan whose per-minute limit a benchmark cannot reach: the limit check still runs on every request.
const benchPlan = namedQuery<Record<never, never>>(
  'bench.plan',
  `INSERT INTO plans (id, name, monthly_price_eur, queries_per_minute, included_queries, storage_limit_gb, connector_limit, max_scan_bytes, price_per_tb_scanned_eur, time_travel_days, sort_order)
   VALUES ('bench', 'Bench', 0, 1000000, 1000000, 1, NULL, 1099511627776, 5.00, 1, 100) ON CONFLICT (id) DO NOTHING`,
);
const usePlan = namedQuery<{ id: string }>('bench.use_plan', "UPDATE workspaces SET plan_id = 'bench' WHERE id = :id");

export interface BenchWorkspace {
  user: TestUser;
  workspace: { id: string };
  /** The service over real HTTP, as clients reach it. */
  server: HttpServer;
}

/** Moves a workspace onto the bench plan: its per-minute limit is out of reach, everything else is Free's. */
export function useBenchPlan(t: TestApp, workspaceId: string): Promise<void> {
  return moveToBenchPlan(t.infra.store, workspaceId);
}

/** The same, on a store of the benchmark's own (the processes it started read it). */
export async function moveToBenchPlan(store: Store, workspaceId: string): Promise<void> {
  await store.run(benchPlan, {});
  await store.run(usePlan, { id: workspaceId });
}

/** A verified user with a workspace on the bench plan, and the service listening on a free port. */
export async function openBenchWorkspace(t: TestApp, name: string): Promise<BenchWorkspace> {
  const user = await createVerifiedUser(t, name);
  const workspace = await createWorkspace(t, user, name);
  await useBenchPlan(t, workspace.id);
  const server = startHttpServer(t.app, { host: '127.0.0.1', port: await freePort() });
  return { user, workspace, server };
}
