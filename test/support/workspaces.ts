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

/** Moves the workspace to the business plan (room for many connections, no low limits in the way). */
export async function useBusinessPlan(t: TestApp, workspaceId: string): Promise<void> {
  await usePlan(t, workspaceId, 'business');
}
