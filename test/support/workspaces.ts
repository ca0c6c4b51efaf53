import { expect } from 'bun:test';
import { namedQuery } from '../../src/store/named-query';
import { bodyOf } from './http';
import type { TestUser } from './accounts';
import type { TestApp } from './test-app';

let counter = 0;
export const uniqueSlug = (label = 'ws') => `${label}-${Date.now().toString(36)}-${++counter}`;

export interface TestWorkspace {
  id: string;
  slug: string;
  name: string;
}

export async function createWorkspace(t: TestApp, owner: TestUser, label = 'ws'): Promise<TestWorkspace> {
  const slug = uniqueSlug(label);
  const response = await t.request('/api/v1/workspaces', { method: 'POST', json: { name: `Workspace ${slug}`, slug }, token: owner.accessToken });
  expect(response.status).toBe(201);
  return bodyOf(response);
}

/** Adds an existing verified user with a role; returns the member id. */
export async function addMember(t: TestApp, workspaceId: string, by: TestUser, user: TestUser, role: string): Promise<string> {
  const response = await t.request(`/api/v1/workspaces/${workspaceId}/members`, { method: 'POST', json: { email: user.email, role }, token: by.accessToken });
  expect(response.status).toBe(201);
  return (await bodyOf(response)).id;
}

const setPlan = namedQuery<{ id: string; plan: string }>('test.use_plan', 'UPDATE workspaces SET plan_id = :plan WHERE id = :id');

/** Moves the workspace to a plan as billing would (the plan's row must exist). */
export async function usePlan(t: TestApp, workspaceId: string, plan: string): Promise<void> {
  await t.infra.store.run(setPlan, { id: workspaceId, plan });
}

/** A plan of a suite's own; what it leaves out is a small, cheap plan's (one connector, 1 GB, 1 TiB per query). */
export interface TestPlan {
  id: string;
  /** Named in errors (`… on the Tiny plan`); the id when left out. */
  name?: string;
  queries_per_minute?: number;
  included_queries?: number;
  storage_limit_gb?: number;
  connector_limit?: number | null;
  max_scan_bytes?: number;
  monthly_price_eur?: number;
  overage_price_eur?: number;
  stripe_price_lookup_key?: string | null;
}

const insertPlan = namedQuery<Required<TestPlan>>(
  'test.add_plan',
  `INSERT INTO plans (id, name, monthly_price_eur, queries_per_minute, included_queries, storage_limit_gb, connector_limit, max_scan_bytes, price_per_tb_scanned_eur, time_travel_days, sort_order, overage_price_eur, stripe_price_lookup_key)
   VALUES (:id, :name, :monthly_price_eur, :queries_per_minute, :included_queries, :storage_limit_gb, :connector_limit, :max_scan_bytes, 5.00, 1, 90, :overage_price_eur, :stripe_price_lookup_key)`,
);

/** Adds a plan to the app's metadata, for `usePlan` (or `withWorkspace`'s `plan`) to move workspaces to. */
export async function addPlan(t: TestApp, plan: TestPlan): Promise<void> {
  await t.infra.store.run(insertPlan, {
    name: plan.id,
    monthly_price_eur: 0,
    queries_per_minute: 100,
    included_queries: 1000,
    storage_limit_gb: 1,
    connector_limit: 1,
    max_scan_bytes: 1_099_511_627_776,
    overage_price_eur: 0,
    stripe_price_lookup_key: null,
    ...plan,
  });
}

/** Moves the workspace to the business plan (room for many connections, no low limits in the way). */
export async function useBusinessPlan(t: TestApp, workspaceId: string): Promise<void> {
  await usePlan(t, workspaceId, 'business');
}
