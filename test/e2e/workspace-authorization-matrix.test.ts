import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../support/backends';
import { startTestApp, type TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import { createVerifiedUser, uniqueEmail, type TestUser } from '../support/accounts';
import { addMember, createWorkspace, uniqueSlug } from '../support/workspaces';

type Actor = 'OWNER' | 'ADMIN' | 'MEMBER' | 'VIEWER' | 'non-member' | 'anonymous';
const actors: Actor[] = ['OWNER', 'ADMIN', 'MEMBER', 'VIEWER', 'non-member', 'anonymous'];

interface Fixture {
  workspaceId: string;
  /** A MEMBER-role member that the member endpoints act on. */
  targetMemberId: string;
}

interface Endpoint {
  name: string;
  request(f: Fixture): { method: string; path: string; json?: unknown };
  /** Expected status per actor; 401 for anonymous and 403 for a non-member unless said otherwise. */
  allowed: Partial<Record<Actor, number>>;
}

const everyRole = (status: number) => ({ OWNER: status, ADMIN: status, MEMBER: status, VIEWER: status });
const managers = (status: number) => ({ OWNER: status, ADMIN: status });

// Every workspace and member endpoint; later features add theirs here.
const endpoints: Endpoint[] = [
  { name: 'list workspaces', request: () => ({ method: 'GET', path: '/api/v1/workspaces' }), allowed: { ...everyRole(200), 'non-member': 200 } },
  { name: 'create a workspace', request: () => ({ method: 'POST', path: '/api/v1/workspaces', json: { name: 'x', slug: uniqueSlug('matrix') } }), allowed: { ...everyRole(201), 'non-member': 201 } },
  { name: 'get the workspace', request: (f) => ({ method: 'GET', path: `/api/v1/workspaces/${f.workspaceId}` }), allowed: everyRole(200) },
  { name: 'delete the workspace', request: (f) => ({ method: 'DELETE', path: `/api/v1/workspaces/${f.workspaceId}` }), allowed: { OWNER: 204 } },
  { name: 'list members', request: (f) => ({ method: 'GET', path: `/api/v1/workspaces/${f.workspaceId}/members` }), allowed: everyRole(200) },
  {
    name: 'add a member',
    request: (f) => ({ method: 'POST', path: `/api/v1/workspaces/${f.workspaceId}/members`, json: { email: uniqueEmail('invitee'), role: 'VIEWER' } }),
    allowed: managers(201),
  },
  {
    name: 'change a role',
    request: (f) => ({ method: 'PATCH', path: `/api/v1/workspaces/${f.workspaceId}/members/${f.targetMemberId}`, json: { role: 'VIEWER' } }),
    allowed: managers(200),
  },
  { name: 'remove a member', request: (f) => ({ method: 'DELETE', path: `/api/v1/workspaces/${f.workspaceId}/members/${f.targetMemberId}` }), allowed: managers(204) },
];

function expectedStatus(endpoint: Endpoint, actor: Actor): { status: number; code?: string } {
  const allowed = endpoint.allowed[actor];
  if (allowed !== undefined) return { status: allowed };
  if (actor === 'anonymous') return { status: 401, code: 'NOT_AUTHENTICATED' };
  if (actor === 'non-member') return { status: 403, code: 'WORKSPACE_ACCESS_DENIED' };
  return { status: 403, code: 'INSUFFICIENT_ROLE' };
}

for (const backend of backends) {
  describe(`authorization matrix on ${backend}`, () => {
    let t: TestApp;
    const people = {} as Record<Exclude<Actor, 'anonymous'>, TestUser> & { target: TestUser };

    beforeAll(async () => {
      t = await startTestApp(backend);
      for (const role of ['OWNER', 'ADMIN', 'MEMBER', 'VIEWER', 'non-member', 'target'] as const) people[role] = await createVerifiedUser(t, role.toLowerCase());
    });
    afterAll(() => t.stop());

    /** A fresh workspace per case, so that a deletion or removal in one case touches no other. */
    async function fixture(): Promise<Fixture> {
      const { id } = await createWorkspace(t, people.OWNER, 'matrix');
      for (const role of ['ADMIN', 'MEMBER', 'VIEWER'] as const) await addMember(t, id, people.OWNER, people[role], role);
      return { workspaceId: id, targetMemberId: await addMember(t, id, people.OWNER, people.target, 'MEMBER') };
    }

    for (const endpoint of endpoints) {
      for (const actor of actors) {
        const expected = expectedStatus(endpoint, actor);
        test(`${endpoint.name} as ${actor} → ${expected.status}${expected.code ? ` ${expected.code}` : ''}`, async () => {
          const f = await fixture();
          const { method, path, json } = endpoint.request(f);
          const token = actor === 'anonymous' ? undefined : people[actor].accessToken;
          const response = await t.request(path, { method, json, token });
          expect(response.status).toBe(expected.status);
          if (expected.code) expect((await bodyOf(response)).detail.error.code).toBe(expected.code);
        });
      }
    }
  });
}
