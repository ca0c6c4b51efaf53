import type { Backend } from './backends';
import { createVerifiedUser, type TestUser } from './accounts';
import { startTestApp, type TestApp, type TestAppOptions } from './test-app';
import { createWorkspace, usePlan, type TestWorkspace } from './workspaces';

/**
 * The set-ups most suites begin with, in one call each (see test/support/README.md):
 *
 *   let t: TestApp, user: TestUser, workspaceId: string;
 *   beforeAll(async () => ({ t, user, workspaceId } = await withWorkspace(backend, { worker: true })));
 *   afterAll(() => t.stop());
 *
 * Given a running app instead of a backend, they add a user (and a workspace) to it; the app stays
 * the caller's to stop either way.
 */
export interface FixtureOptions extends TestAppOptions {
  /** Names the user's address and the workspace's slug, so that logs and rows say which suite made them. */
  label?: string;
  /** The workspace's plan (a row of `plans`): `business` has room for many connections and queries. */
  plan?: string;
}

export interface UserFixture {
  t: TestApp;
  /** Signed up, verified through the outbox and logged in. */
  user: TestUser;
  /** The user's access token. */
  token: string;
}

export interface WorkspaceFixture extends UserFixture {
  /** Owned by `user`. */
  workspace: TestWorkspace;
  workspaceId: string;
}

export async function withUser(on: Backend | TestApp, options: FixtureOptions = {}): Promise<UserFixture> {
  const t = typeof on === 'string' ? await startTestApp(on, options) : on;
  const user = await createVerifiedUser(t, options.label);
  return { t, user, token: user.accessToken };
}

export async function withWorkspace(on: Backend | TestApp, options: FixtureOptions = {}): Promise<WorkspaceFixture> {
  const fixture = await withUser(on, options);
  const workspace = await createWorkspace(fixture.t, fixture.user, options.label);
  if (options.plan) await usePlan(fixture.t, workspace.id, options.plan);
  return { ...fixture, workspace, workspaceId: workspace.id };
}
