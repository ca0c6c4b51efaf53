import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../../support/test-app';
import { bodyOf } from '../../support/http';
import { createVerifiedUser, type TestUser } from '../../support/accounts';
import { addMember } from '../../support/workspaces';
import { push } from '../../support/lake';
import { withWorkspace } from '../../support/fixtures';

describe('push validation', () => {
  let t: TestApp, user: TestUser, workspaceId: string;
  beforeAll(async () => ({ t, user, workspaceId } = await withWorkspace('local', { env: { PUSH_MAX_BODY_BYTES: String(64 * 1024) }, label: 'validator' })));
  afterAll(() => t.stop());

  const locsOf = async (response: Response) => (await bodyOf(response)).detail.map((issue: { loc: unknown }) => issue.loc);

  test.each([
    ['no table', { records: [{ a: 1 }] }, [['body', 'table']]],
    ['a table without a namespace', { table: 'orders', records: [{ a: 1 }] }, [['body', 'table']]],
    ['a table with three parts', { table: 'a.b.c', records: [{ a: 1 }] }, [['body', 'table']]],
    ['a table name with a space', { table: 'raw.my table', records: [{ a: 1 }] }, [['body', 'table']]],
    ['a table name starting with a digit', { table: 'raw.1abc', records: [{ a: 1 }] }, [['body', 'table']]],
    ['a reserved namespace', { table: 'information_schema.x', records: [{ a: 1 }] }, [['body', 'table']]],
    ['an internal namespace', { table: '__ducklake_metadata_lake.x', records: [{ a: 1 }] }, [['body', 'table']]],
    ['no records', { table: 'raw.x' }, [['body', 'records']]],
    ['empty records', { table: 'raw.x', records: [] }, [['body', 'records']]],
    [
      'records that are not objects',
      { table: 'raw.x', records: [{ a: 1 }, 5, [1], null] },
      [
        ['body', 'records', 1],
        ['body', 'records', 2],
        ['body', 'records', 3],
      ],
    ],
    ['records without fields', { table: 'raw.x', records: [{}] }, [['body', 'records']]],
    ['fields differing only in case', { table: 'raw.x', records: [{ Name: 'a', name: 'b' }] }, [['body', 'records', 0, 'name']]],
    ['an unknown mode', { table: 'raw.x', records: [{ a: 1 }], mode: 'replace' }, [['body', 'mode']]],
    ['an empty primary key', { table: 'raw.x', records: [{ a: 1 }], primary_key: [] }, [['body', 'primary_key']]],
    ['a key column missing from a record', { table: 'raw.x', records: [{ id: 1 }, { other: 2 }], primary_key: ['id'] }, [['body', 'records', 1, 'id']]],
    ['a null key value', { table: 'raw.x', records: [{ id: null }], primary_key: ['id'] }, [['body', 'records', 0, 'id']]],
    ['an object as a key value', { table: 'raw.x', records: [{ id: { a: 1 } }], primary_key: ['id'] }, [['body', 'records', 0, 'id']]],
    ['a repeated key column', { table: 'raw.x', records: [{ id: 1 }], primary_key: ['id', 'id'] }, [['body', 'primary_key']]],
  ])('422 for %s', async (_, body, locs) => {
    const response = await push(t, workspaceId, user, body);
    expect(response.status).toBe(422);
    expect(await locsOf(response)).toEqual(locs);
  });

  test('nothing is written by a refused push', async () => {
    await push(t, workspaceId, user, { table: 'raw.never', records: [{ id: 1 }, { other: 2 }], primary_key: ['id'] });
    const { tables } = await bodyOf(await t.request(`/api/v1/workspaces/${workspaceId}/query/tables`, { token: user.accessToken }));
    expect(tables.map((entry: { name: string }) => entry.name)).not.toContain('never');
  });

  test('a body over the limit is 413 PAYLOAD_TOO_LARGE', async () => {
    const records = Array.from({ length: 2_000 }, (_, id) => ({ id, text: 'x'.repeat(40) }));
    const response = await push(t, workspaceId, user, { table: 'raw.big', records });
    expect(response.status).toBe(413);
    expect((await bodyOf(response)).detail.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  test('MEMBER and above may push; a VIEWER gets 403, a stranger 403, nobody 401', async () => {
    const member = await createVerifiedUser(t, 'member');
    const viewer = await createVerifiedUser(t, 'viewer');
    const stranger = await createVerifiedUser(t, 'stranger');
    await addMember(t, workspaceId, user, member, 'MEMBER');
    await addMember(t, workspaceId, user, viewer, 'VIEWER');
    const body = { table: 'raw.roles', records: [{ a: 1 }] };
    expect((await push(t, workspaceId, member, body)).status).toBe(200);
    const byViewer = await push(t, workspaceId, viewer, body);
    expect(byViewer.status).toBe(403);
    expect((await bodyOf(byViewer)).detail.error.code).toBe('INSUFFICIENT_ROLE');
    expect((await bodyOf(await push(t, workspaceId, stranger, body))).detail.error.code).toBe('WORKSPACE_ACCESS_DENIED');
    expect((await t.request(`/api/v1/workspaces/${workspaceId}/push`, { method: 'POST', json: body })).status).toBe(401);
  });
});
