import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import { createVerifiedUser, latestMailTo, tokenFromMail, uniqueEmail } from '../support/accounts';
import { addMember, createWorkspace, uniqueSlug } from '../support/workspaces';
import { listPlans } from '../../src/plans/plan-queries';
import { withWorkspace } from '../support/fixtures';

describe('workspaces and members', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('local');
  });
  afterAll(() => t.stop());

  const members = async (workspaceId: string, token: string) => bodyOf(await t.request(`/api/v1/workspaces/${workspaceId}/members?limit=200`, { token }));
  const codeOf = async (response: Response) => (await bodyOf(response)).detail.error.code;

  test('a new workspace has the default region, the Free plan, and its creator as OWNER', async () => {
    const owner = await createVerifiedUser(t, 'creator');
    const slug = uniqueSlug('new');
    const response = await t.request('/api/v1/workspaces', { method: 'POST', json: { name: 'Analytics', slug }, token: owner.accessToken });
    expect(response.status).toBe(201);
    const created = await bodyOf(response);
    expect(created).toEqual({ id: expect.any(String), name: 'Analytics', slug, region: 'eu-west-gra', plan: 'free', created_at: expect.any(String) });
    expect(await bodyOf(await t.request(`/api/v1/workspaces/${created.id}`, { token: owner.accessToken }))).toEqual({ ...created, role: 'OWNER' });
    const list = await t.request('/api/v1/workspaces', { token: owner.accessToken });
    expect(list.headers.get('x-total-count')).toBe('1');
    expect(await bodyOf(list)).toEqual([{ ...created, role: 'OWNER' }]);
    expect(await members(created.id, owner.accessToken)).toEqual([
      { id: expect.any(String), user_id: owner.userId, email: owner.email, role: 'OWNER', status: 'active' },
    ]);
  });

  test('plans are seeded with their per-minute query limits, quotas and limits', async () => {
    const plans = await t.infra.store.all(listPlans, {});
    expect(plans.map((plan) => [plan.id, plan.queries_per_minute, plan.connector_limit, plan.overage_price_eur, plan.stripe_price_lookup_key])).toEqual([
      ['free', 10, 2, 0, null],
      ['team', 60, 20, 0.002, 'oxbow_team'],
      ['business', 100, null, 0.001, 'oxbow_business'],
      ['enterprise', 2147483647, null, 0, 'oxbow_enterprise'],
    ]);
    for (const plan of plans) {
      expect(plan.included_queries).toBeGreaterThan(0);
      expect(plan.storage_limit_gb).toBeGreaterThan(0);
      expect(plan.price_per_tb_scanned_eur).toBe(5);
    }
  });

  test.each([
    ['ab', 'too short'],
    ['a'.repeat(64), 'too long'],
    ['-leading', 'a leading hyphen'],
    ['trailing-', 'a trailing hyphen'],
    ['Upper-Case', 'capitals'],
    ['under_score', 'an underscore'],
    ['spa ce', 'a space'],
  ])('422 for the slug "%s" (%s)', async (slug) => {
    const owner = await createVerifiedUser(t, 'slugs');
    const response = await t.request('/api/v1/workspaces', { method: 'POST', json: { name: 'x', slug }, token: owner.accessToken });
    expect(response.status).toBe(422);
    expect((await bodyOf(response)).detail[0].loc).toEqual(['body', 'slug']);
  });

  test('slugs of 3 and 63 characters with inner hyphens and digits are fine', async () => {
    const owner = await createVerifiedUser(t, 'slugs-ok');
    for (const slug of ['a-9', `x-${'y0'.repeat(30)}z`]) {
      const response = await t.request('/api/v1/workspaces', { method: 'POST', json: { name: 'x', slug }, token: owner.accessToken });
      expect(response.status).toBe(201);
      expect((await bodyOf(response)).slug).toHaveLength(slug.length);
    }
  });

  test('a slug is unique service-wide: 409 CONFLICT when taken, free again once the workspace is deleted', async () => {
    const { user: first, workspace } = await withWorkspace(t, { label: 'first' });
    const second = await createVerifiedUser(t, 'second');
    const clash = await t.request('/api/v1/workspaces', { method: 'POST', json: { name: 'again', slug: workspace.slug }, token: second.accessToken });
    expect(clash.status).toBe(409);
    expect(await codeOf(clash)).toBe('CONFLICT');
    expect((await t.request(`/api/v1/workspaces/${workspace.id}`, { method: 'DELETE', token: first.accessToken })).status).toBe(204);
    expect((await t.request('/api/v1/workspaces', { method: 'POST', json: { name: 'again', slug: workspace.slug }, token: second.accessToken })).status).toBe(
      201,
    );
  });

  test('a deleted workspace is gone for every member at once', async () => {
    const { user: owner, workspace } = await withWorkspace(t, { label: 'deleter' });
    const member = await createVerifiedUser(t, 'bystander');
    await addMember(t, workspace.id, owner, member, 'MEMBER');
    await t.request(`/api/v1/workspaces/${workspace.id}`, { method: 'DELETE', token: owner.accessToken });
    for (const user of [owner, member]) {
      const response = await t.request(`/api/v1/workspaces/${workspace.id}`, { token: user.accessToken });
      expect(response.status).toBe(403);
      expect(await bodyOf(await t.request('/api/v1/workspaces', { token: user.accessToken }))).toEqual([]);
    }
  });

  test('adding an address without an account invites it; verifying the address makes it a member', async () => {
    const { user: owner, workspace } = await withWorkspace(t, { label: 'inviter' });
    const email = uniqueEmail('newcomer');
    const added = await t.request(`/api/v1/workspaces/${workspace.id}/members`, { method: 'POST', json: { email, role: 'MEMBER' }, token: owner.accessToken });
    expect(added.status).toBe(201);
    const invitation = await bodyOf(added);
    expect(invitation).toEqual({ id: expect.any(String), user_id: null, email, role: 'MEMBER', status: 'invited' });
    expect((await latestMailTo(t, email))?.subject).toContain(workspace.name);

    await t.request('/api/v1/auth/signup', { method: 'POST', json: { email, password: 'long enough password' } });
    expect((await members(workspace.id, owner.accessToken)).find((m: { id: string }) => m.id === invitation.id).status).toBe('invited');
    await t.request('/api/v1/auth/verify-email', { method: 'POST', json: { token: await tokenFromMail(t, email) } });
    const bound = (await members(workspace.id, owner.accessToken)).find((m: { id: string }) => m.id === invitation.id);
    expect(bound).toMatchObject({ email, role: 'MEMBER', status: 'active', user_id: expect.any(String) });

    const pair = await bodyOf(await t.request('/api/v1/auth/login', { method: 'POST', json: { email, password: 'long enough password' } }));
    const theirs = await bodyOf(await t.request('/api/v1/workspaces', { token: pair.access_token }));
    expect(theirs).toEqual([expect.objectContaining({ id: workspace.id, role: 'MEMBER' })]);
  });

  test('the answer to an add does not tell whether the address has an account', async () => {
    const { user: owner, workspace } = await withWorkspace(t, { label: 'discreet' });
    const existing = await createVerifiedUser(t, 'known');
    const shape = async (email: string) => {
      const response = await t.request(`/api/v1/workspaces/${workspace.id}/members`, {
        method: 'POST',
        json: { email, role: 'VIEWER' },
        token: owner.accessToken,
      });
      const { id: _id, email: _email, ...rest } = await bodyOf(response);
      return { status: response.status, ...rest };
    };
    expect(await shape(existing.email)).toEqual(await shape(uniqueEmail('unknown')));
  });

  test('adding the same person twice is 409; OWNER by invitation is 422', async () => {
    const { user: owner, workspace } = await withWorkspace(t, { label: 'dup' });
    const member = await createVerifiedUser(t, 'dupe');
    await addMember(t, workspace.id, owner, member, 'VIEWER');
    const again = await t.request(`/api/v1/workspaces/${workspace.id}/members`, {
      method: 'POST',
      json: { email: member.email, role: 'ADMIN' },
      token: owner.accessToken,
    });
    expect(again.status).toBe(409);
    const asOwner = await t.request(`/api/v1/workspaces/${workspace.id}/members`, {
      method: 'POST',
      json: { email: uniqueEmail('boss'), role: 'OWNER' },
      token: owner.accessToken,
    });
    expect(asOwner.status).toBe(422);
    expect((await bodyOf(asOwner)).detail[0].loc).toEqual(['body', 'role']);
    const badRole = await t.request(`/api/v1/workspaces/${workspace.id}/members`, {
      method: 'POST',
      json: { email: uniqueEmail('x'), role: 'GOD' },
      token: owner.accessToken,
    });
    expect(badRole.status).toBe(422);
  });

  test('ownership transfer: only the OWNER hands it on and becomes ADMIN; there is always exactly one OWNER', async () => {
    const { user: owner, workspace } = await withWorkspace(t, { label: 'old-owner' });
    const admin = await createVerifiedUser(t, 'heir');
    const adminId = await addMember(t, workspace.id, owner, admin, 'ADMIN');
    const ownerId = (await members(workspace.id, owner.accessToken)).find((m: { role: string }) => m.role === 'OWNER').id;

    const byAdmin = await t.request(`/api/v1/workspaces/${workspace.id}/members/${adminId}`, {
      method: 'PATCH',
      json: { role: 'OWNER' },
      token: admin.accessToken,
    });
    expect(byAdmin.status).toBe(403);
    const adminOnOwner = await t.request(`/api/v1/workspaces/${workspace.id}/members/${ownerId}`, {
      method: 'PATCH',
      json: { role: 'VIEWER' },
      token: admin.accessToken,
    });
    expect(adminOnOwner.status).toBe(403);
    expect(await codeOf(adminOnOwner)).toBe('INSUFFICIENT_ROLE');
    const selfDemotion = await t.request(`/api/v1/workspaces/${workspace.id}/members/${ownerId}`, {
      method: 'PATCH',
      json: { role: 'ADMIN' },
      token: owner.accessToken,
    });
    expect(selfDemotion.status).toBe(409);

    const transfer = await t.request(`/api/v1/workspaces/${workspace.id}/members/${adminId}`, {
      method: 'PATCH',
      json: { role: 'OWNER' },
      token: owner.accessToken,
    });
    expect(transfer.status).toBe(200);
    expect(await bodyOf(transfer)).toMatchObject({ id: adminId, role: 'OWNER', status: 'active' });
    const roles = (await members(workspace.id, admin.accessToken)).map((m: { id: string; role: string }) => [m.id, m.role]);
    expect(roles).toEqual(
      expect.arrayContaining([
        [ownerId, 'ADMIN'],
        [adminId, 'OWNER'],
      ]),
    );
    expect(roles.filter(([, role]: string[]) => role === 'OWNER')).toHaveLength(1);
    expect((await t.request(`/api/v1/workspaces/${workspace.id}`, { method: 'DELETE', token: owner.accessToken })).status).toBe(403);
  });

  test('the owner cannot be removed: 403 for an ADMIN, 409 for the owner itself', async () => {
    const { user: owner, workspace } = await withWorkspace(t, { label: 'fixture' });
    const admin = await createVerifiedUser(t, 'would-be');
    await addMember(t, workspace.id, owner, admin, 'ADMIN');
    const ownerId = (await members(workspace.id, owner.accessToken)).find((m: { role: string }) => m.role === 'OWNER').id;
    expect((await t.request(`/api/v1/workspaces/${workspace.id}/members/${ownerId}`, { method: 'DELETE', token: admin.accessToken })).status).toBe(403);
    expect((await t.request(`/api/v1/workspaces/${workspace.id}/members/${ownerId}`, { method: 'DELETE', token: owner.accessToken })).status).toBe(409);
  });

  test('a removed member loses access at once; an invitation can be withdrawn', async () => {
    const { user: owner, workspace } = await withWorkspace(t, { label: 'remover' });
    const member = await createVerifiedUser(t, 'removed');
    const memberId = await addMember(t, workspace.id, owner, member, 'MEMBER');
    expect((await t.request(`/api/v1/workspaces/${workspace.id}/members/${memberId}`, { method: 'DELETE', token: owner.accessToken })).status).toBe(204);
    expect((await t.request(`/api/v1/workspaces/${workspace.id}`, { token: member.accessToken })).status).toBe(403);
    const invitation = await bodyOf(
      await t.request(`/api/v1/workspaces/${workspace.id}/members`, {
        method: 'POST',
        json: { email: uniqueEmail('maybe'), role: 'VIEWER' },
        token: owner.accessToken,
      }),
    );
    expect((await t.request(`/api/v1/workspaces/${workspace.id}/members/${invitation.id}`, { method: 'DELETE', token: owner.accessToken })).status).toBe(204);
    expect((await members(workspace.id, owner.accessToken)).map((m: { id: string }) => m.id)).not.toContain(invitation.id);
  });

  test('members page with limit and offset and report the total', async () => {
    const { user: owner, workspace } = await withWorkspace(t, { label: 'pager' });
    for (let i = 0; i < 4; i++)
      await t.request(`/api/v1/workspaces/${workspace.id}/members`, {
        method: 'POST',
        json: { email: uniqueEmail(`p${i}`), role: 'VIEWER' },
        token: owner.accessToken,
      });
    const page = await t.request(`/api/v1/workspaces/${workspace.id}/members?limit=2&offset=1`, { token: owner.accessToken });
    expect(page.headers.get('x-total-count')).toBe('5');
    expect(await bodyOf(page)).toHaveLength(2);
    expect((await t.request(`/api/v1/workspaces/${workspace.id}/members?limit=201`, { token: owner.accessToken })).status).toBe(422);
    expect((await t.request(`/api/v1/workspaces/${workspace.id}/members?offset=-1`, { token: owner.accessToken })).status).toBe(422);
  });

  test('unknown ids: a workspace id that is not a uuid is 422, an unknown one 403, an unknown member 404', async () => {
    const { user: owner, workspace } = await withWorkspace(t, { label: 'ids' });
    expect((await t.request('/api/v1/workspaces/not-a-uuid', { token: owner.accessToken })).status).toBe(422);
    const unknown = await t.request(`/api/v1/workspaces/${crypto.randomUUID()}`, { token: owner.accessToken });
    expect(unknown.status).toBe(403);
    expect(await codeOf(unknown)).toBe('WORKSPACE_ACCESS_DENIED');
    const missingMember = await t.request(`/api/v1/workspaces/${workspace.id}/members/${crypto.randomUUID()}`, {
      method: 'PATCH',
      json: { role: 'VIEWER' },
      token: owner.accessToken,
    });
    expect(missingMember.status).toBe(404);
  });

  test('the default workspace is the oldest membership; without one it is NO_WORKSPACE', async () => {
    const user = await createVerifiedUser(t, 'defaults');
    expect(t.services.workspaces.access.defaultWorkspaceId(user.userId)).rejects.toMatchObject({ code: 'NO_WORKSPACE', status: 400 });
    const { user: other, workspace: older } = await withWorkspace(t, { label: 'other' });
    await addMember(t, older.id, other, user, 'VIEWER');
    await createWorkspace(t, user);
    expect(await t.services.workspaces.access.defaultWorkspaceId(user.userId)).toBe(older.id);
    const bySlug = await t.services.workspaces.access.resolve(user.userId, older.slug, 'data:read');
    expect(bySlug.workspaceId).toBe(older.id);
  });

  test('an account that owns a workspace with other members cannot be deleted until ownership moves', async () => {
    const { user: owner, workspace } = await withWorkspace(t, { label: 'leaver' });
    const member = await createVerifiedUser(t, 'stayer');
    const memberId = await addMember(t, workspace.id, owner, member, 'ADMIN');
    const refused = await t.request('/api/v1/auth/me/delete-account', { method: 'POST', json: { password: owner.password }, token: owner.accessToken });
    expect(refused.status).toBe(409);
    expect((await bodyOf(refused)).detail.error.message).toContain(workspace.name);
    await t.request(`/api/v1/workspaces/${workspace.id}/members/${memberId}`, { method: 'PATCH', json: { role: 'OWNER' }, token: owner.accessToken });
    expect((await t.request('/api/v1/auth/me/delete-account', { method: 'POST', json: { password: owner.password }, token: owner.accessToken })).status).toBe(
      204,
    );
    expect((await t.request(`/api/v1/workspaces/${workspace.id}`, { token: member.accessToken })).status).toBe(200);
  });

  test('a workspace its deleted owner had alone goes with the account', async () => {
    const { user: owner, workspace } = await withWorkspace(t, { label: 'solo' });
    expect((await t.request('/api/v1/auth/me/delete-account', { method: 'POST', json: { password: owner.password }, token: owner.accessToken })).status).toBe(
      204,
    );
    const other = await createVerifiedUser(t, 'slug-taker');
    expect((await t.request('/api/v1/workspaces', { method: 'POST', json: { name: 'reuse', slug: workspace.slug }, token: other.accessToken })).status).toBe(
      201,
    );
  });
});
