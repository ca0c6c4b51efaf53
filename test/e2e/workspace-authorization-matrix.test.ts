import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends } from '../support/backends';
import { startTestApp, type TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import { createVerifiedUser, uniqueEmail, type TestUser } from '../support/accounts';
import { addMember, createWorkspace, uniqueSlug } from '../support/workspaces';
import { pushOk } from '../support/lake';
import { testEnv } from '../support/test-env';

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
  /** Cases that delete or demote get a workspace of their own; the others share one per endpoint. */
  destructive?: boolean;
  /** The workspace needs a table (raw.facts) for this endpoint. */
  table?: boolean;
}

const everyRole = (status: number) => ({ OWNER: status, ADMIN: status, MEMBER: status, VIEWER: status });
const managers = (status: number) => ({ OWNER: status, ADMIN: status });
const writers = (status: number) => ({ OWNER: status, ADMIN: status, MEMBER: status });

// Every workspace and member endpoint, and what each later feature reads (its own suite tests its writes by role).
const endpoints: Endpoint[] = [
  { name: 'list workspaces', request: () => ({ method: 'GET', path: '/api/v1/workspaces' }), allowed: { ...everyRole(200), 'non-member': 200 } },
  {
    name: 'create a workspace',
    request: () => ({ method: 'POST', path: '/api/v1/workspaces', json: { name: 'x', slug: uniqueSlug('matrix') } }),
    allowed: { ...everyRole(201), 'non-member': 201 },
  },
  { name: 'get the workspace', request: (f) => ({ method: 'GET', path: `/api/v1/workspaces/${f.workspaceId}` }), allowed: everyRole(200) },
  {
    name: 'delete the workspace',
    request: (f) => ({ method: 'DELETE', path: `/api/v1/workspaces/${f.workspaceId}` }),
    allowed: { OWNER: 204 },
    destructive: true,
  },
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
    destructive: true,
  },
  {
    name: 'remove a member',
    request: (f) => ({ method: 'DELETE', path: `/api/v1/workspaces/${f.workspaceId}/members/${f.targetMemberId}` }),
    allowed: managers(204),
    destructive: true,
  },
  {
    name: 'push records',
    request: (f) => ({ method: 'POST', path: `/api/v1/workspaces/${f.workspaceId}/push`, json: { table: 'raw.more', records: [{ a: 1 }] } }),
    allowed: writers(200),
  },
  {
    name: 'query',
    request: (f) => ({ method: 'POST', path: `/api/v1/workspaces/${f.workspaceId}/query`, json: { sql: 'SELECT count(*) FROM raw.facts' } }),
    allowed: everyRole(200),
    table: true,
  },
  {
    name: 'query with workspace_id',
    request: (f) => ({ method: 'POST', path: '/api/v1/query', json: { sql: 'SELECT 1', workspace_id: f.workspaceId } }),
    allowed: everyRole(200),
  },
  { name: 'rate limit', request: (f) => ({ method: 'GET', path: `/api/v1/query/rate-limit?workspace_id=${f.workspaceId}` }), allowed: everyRole(200) },
  { name: 'list tables', request: (f) => ({ method: 'GET', path: `/api/v1/workspaces/${f.workspaceId}/query/tables` }), allowed: everyRole(200) },
  { name: 'list tables by ?workspace=', request: (f) => ({ method: 'GET', path: `/api/v1/query/tables?workspace=${f.workspaceId}` }), allowed: everyRole(200) },
  {
    name: 'table metadata',
    request: (f) => ({ method: 'GET', path: `/api/v1/workspaces/${f.workspaceId}/query/tables/raw.facts/metadata` }),
    allowed: everyRole(200),
    table: true,
  },
  {
    name: 'table metadata by ?workspace=',
    request: (f) => ({ method: 'GET', path: `/api/v1/query/tables/raw.facts/metadata?workspace=${f.workspaceId}` }),
    allowed: everyRole(200),
    table: true,
  },
  {
    name: 'drop a table',
    request: (f) => ({ method: 'DELETE', path: `/api/v1/query/tables/raw/facts?workspace=${f.workspaceId}` }),
    allowed: writers(204),
    destructive: true,
    table: true,
  },
  { name: 'usage summary', request: (f) => ({ method: 'GET', path: `/api/v1/workspaces/${f.workspaceId}/usage` }), allowed: everyRole(200) },
  { name: 'daily usage', request: (f) => ({ method: 'GET', path: `/api/v1/workspaces/${f.workspaceId}/usage/daily` }), allowed: everyRole(200) },
  { name: 'current period usage', request: (f) => ({ method: 'GET', path: `/api/v1/workspaces/${f.workspaceId}/usage/current` }), allowed: everyRole(200) },
  { name: 'usage dashboard', request: (f) => ({ method: 'GET', path: `/api/v1/workspaces/${f.workspaceId}/usage/dashboard` }), allowed: everyRole(200) },
  { name: 'usage export', request: (f) => ({ method: 'GET', path: `/api/v1/workspaces/${f.workspaceId}/usage/export?format=json` }), allowed: everyRole(200) },
  { name: 'billing status', request: (f) => ({ method: 'GET', path: `/api/v1/workspaces/${f.workspaceId}/billing/status` }), allowed: everyRole(200) },
  { name: 'set up billing', request: (f) => ({ method: 'POST', path: `/api/v1/workspaces/${f.workspaceId}/billing/setup` }), allowed: managers(200) },
  {
    name: 'billing portal session',
    request: (f) => ({ method: 'POST', path: `/api/v1/workspaces/${f.workspaceId}/billing/portal-session` }),
    allowed: managers(200),
  },
  { name: 'list connections', request: (f) => ({ method: 'GET', path: `/api/v1/workspaces/${f.workspaceId}/connections` }), allowed: everyRole(200) },
  { name: 'list sync jobs', request: (f) => ({ method: 'GET', path: `/api/v1/workspaces/${f.workspaceId}/connections/sync-jobs` }), allowed: everyRole(200) },
  {
    name: 'OAuth consent URL',
    request: (f) => ({ method: 'GET', path: `/api/v1/oauth/hubspot/authorize?workspace_id=${f.workspaceId}&connection_name=matrix_crm` }),
    allowed: writers(200),
  },
  { name: 'list transforms', request: (f) => ({ method: 'GET', path: `/api/v1/workspaces/${f.workspaceId}/transforms` }), allowed: everyRole(200) },
  { name: 'transform DAG', request: (f) => ({ method: 'GET', path: `/api/v1/workspaces/${f.workspaceId}/transforms/dag` }), allowed: everyRole(200) },
  { name: 'list saved queries', request: (f) => ({ method: 'GET', path: `/api/v1/workspaces/${f.workspaceId}/saved-queries` }), allowed: everyRole(200) },
  { name: 'list charts', request: (f) => ({ method: 'GET', path: `/api/v1/workspaces/${f.workspaceId}/charts` }), allowed: everyRole(200) },
  { name: 'list pages', request: (f) => ({ method: 'GET', path: `/api/v1/workspaces/${f.workspaceId}/pages` }), allowed: everyRole(200) },
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
      // Billing set up against stripe-mock: setup and the portal answer their managers.
      // HubSpot configured (its consent URL is only built, never followed): authorize answers its writers.
      const hubspot = {
        OAUTH_HUBSPOT_CLIENT_ID: 'matrix-client',
        OAUTH_HUBSPOT_CLIENT_SECRET: 'matrix-secret',
        OAUTH_HUBSPOT_AUTHORIZE_URL: 'http://127.0.0.1:9/oauth/authorize',
        OAUTH_HUBSPOT_TOKEN_URL: 'http://127.0.0.1:9/oauth/v1/token',
        OAUTH_HUBSPOT_API_BASE: 'http://127.0.0.1:9',
      };
      t = await startTestApp(backend, { env: { STRIPE_SECRET_KEY: 'sk_test_matrix', STRIPE_API_BASE: testEnv.stripeApiBase(), ...hubspot } });
      for (const role of ['OWNER', 'ADMIN', 'MEMBER', 'VIEWER', 'non-member', 'target'] as const)
        people[role] = await createVerifiedUser(t, role.toLowerCase());
    });
    afterAll(() => t.stop());

    /** A workspace with a member of each role (and a table when the endpoint needs one). */
    async function fixture(withTable: boolean): Promise<Fixture> {
      const { id } = await createWorkspace(t, people.OWNER, 'matrix');
      for (const role of ['ADMIN', 'MEMBER', 'VIEWER'] as const) await addMember(t, id, people.OWNER, people[role], role);
      if (withTable) await pushOk(t, id, people.OWNER, { table: 'raw.facts', records: [{ a: 1 }] });
      return { workspaceId: id, targetMemberId: await addMember(t, id, people.OWNER, people.target, 'MEMBER') };
    }

    for (const endpoint of endpoints) {
      let shared: Promise<Fixture> | undefined;
      const fixtureFor = () => (endpoint.destructive ? fixture(endpoint.table ?? false) : (shared ??= fixture(endpoint.table ?? false)));
      for (const actor of actors) {
        const expected = expectedStatus(endpoint, actor);
        test(`${endpoint.name} as ${actor} → ${expected.status}${expected.code ? ` ${expected.code}` : ''}`, async () => {
          const f = await fixtureFor();
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
