import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { TestApp } from '../../support/test-app';
import type { TestUser } from '../../support/accounts';
import { bodyOf } from '../../support/http';
import { withWorkspace } from '../../support/fixtures';
import { columnsOf, query } from '../../support/lake';

// A JSON body of a megabyte or more has its records read on two threads (see splitLargePush). What
// it answers must be what the same body read whole answers: a body naming its records with an
// escape (`rec\u006frds`, which JSON.parse reads as `records`) is read whole, and serves as the measure.
describe('a large push body', () => {
  let t: TestApp, user: TestUser, workspaceId: string;
  let counter = 0;
  const newTable = () => `large.t${Date.now().toString(36)}_${++counter}`;
  beforeAll(async () => ({ t, user, workspaceId } = await withWorkspace('local', { label: 'large' })));
  afterAll(() => t.stop());

  const fillerCount = 20_000;
  const filler = (i: number) => `{"i":${i},"s":"${'s'.repeat(30)}","at":"2026-11-21T10:00:00Z"}`;
  /** Records text of about 1.2 MB, `replacements` standing in place of the filler records at their indexes. */
  const recordsText = (replacements: Record<number, string> = {}) =>
    `[${Array.from({ length: fillerCount }, (_, i) => replacements[i] ?? filler(i)).join(',')}]`;
  const body = (members: string, records: string, name = 'records') => `{${members}${members ? ',' : ''}"${name}":${records}}`;

  const send = (text: string, headers: Record<string, string> = {}) =>
    t.request(`/api/v1/workspaces/${workspaceId}/push`, {
      method: 'POST',
      body: text,
      headers: { 'content-type': 'application/json', ...headers },
      token: user.accessToken,
    });
  const tableExists = async (table: string) => {
    const { tables } = await bodyOf(await t.request(`/api/v1/workspaces/${workspaceId}/query/tables`, { token: user.accessToken }));
    return tables.some((entry: { schema_name: string; name: string }) => `${entry.schema_name}.${entry.name}` === table);
  };

  /** The answer to the body, and to the same body read whole; the first writes nothing when refused. */
  const answers = async (members: (table: string) => string, records: string) => {
    const [fast, whole] = [newTable(), newTable()];
    const response = await send(body(members(fast), records));
    const measure = await send(body(members(whole), records, 'rec\\u006frds'));
    const answer = { status: response.status, body: await bodyOf(response) };
    const expected = { status: measure.status, body: await bodyOf(measure) };
    if (answer.status !== 200) expect(await tableExists(fast)).toBe(false);
    return { answer, expected, fast, whole };
  };

  const refusals: [string, Record<number, string>][] = [
    ['a number among the records', { 15_000: '5' }],
    ['null and an array among the records', { 100: 'null', 19_000: '[1]' }],
    ['a lone surrogate', { 12_000: '{"i":1,"s":"\\ud800"}' }],
    ['a NUL in a text and in a name', { 11_000: '{"i":1,"s":"a\\u0000b"}', 18_000: '{"i\\u0000":1}' }],
    ['a number beyond a double', { 16_000: '{"i":1e400}' }],
    ['nesting deeper than a hundred levels', { 17_000: `{"i":${'['.repeat(120)}${']'.repeat(120)}}` }],
    ['names differing only in case, one in each half', { 10: '{"Mixed":1}', 19_990: '{"mixed":2}' }],
    ['an empty name', { 15_500: '{"":1}' }],
    ['a record that is no JSON', { 14_000: '{"i":}' }],
  ];
  for (const [name, replacements] of refusals) {
    test(`${name}: refused as the body read whole is`, async () => {
      const { answer, expected } = await answers((table) => `"table":"${table}"`, recordsText(replacements));
      expect(answer.status).toBe(422);
      expect(answer).toEqual(expected);
    });
  }

  test('a thousand and one fields over the two halves: refused as the body read whole is', async () => {
    const wide = (from: number) => `{${Array.from({ length: 501 }, (_, i) => `"f${from + i}":1`).join(',')}}`;
    const { answer, expected } = await answers((table) => `"table":"${table}"`, recordsText({ 10: wide(0), 19_000: wide(500) }));
    expect(answer.status).toBe(422);
    expect(answer).toEqual(expected);
  });

  test('records without fields, a missing table, an unknown mode: refused as the body read whole is', async () => {
    const empty = `[${Array.from({ length: 400_000 }, () => '{}').join(',')}]`;
    for (const [members, records] of [
      [(table: string) => `"table":"${table}"`, empty],
      [() => `"mode":"append"`, recordsText()],
      [(table: string) => `"table":"${table}","mode":"replace"`, recordsText()],
    ] as const) {
      const { answer, expected } = await answers(members, records);
      expect(answer.status).toBe(422);
      expect(answer).toEqual(expected);
    }
  });

  test('a body cut short is no JSON, and writes nothing', async () => {
    const table = newTable();
    const response = await send(body(`"table":"${table}"`, recordsText()).slice(0, -5));
    expect(response.status).toBe(422);
    expect((await bodyOf(response)).detail[0].type).toBe('json_invalid');
    expect(await tableExists(table)).toBe(false);
  });

  test('types that widen across the halves: the table the body read whole makes', async () => {
    const { answer, expected, fast, whole } = await answers(
      (table) => `"table":"${table}"`,
      recordsText({ 5: '{"i":1.5,"at":"not a time"}', 19_500: '{"s":7,"extra":{"k":[1]},"i":2}' }),
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ...expected.body, table: fast });
    expect(await columnsOf(t, workspaceId, fast, user)).toEqual(await columnsOf(t, workspaceId, whole, user));
    const rows = (table: string) => query(t, workspaceId, `SELECT COLUMNS(*)::VARCHAR FROM ${table} ORDER BY ALL`);
    expect(await rows(fast)).toEqual(await rows(whole));
  });

  test('records named twice: the last are written, as the body read whole writes them', async () => {
    const { answer, expected, fast, whole } = await answers((table) => `"table":"${table}","records":[{"i":-1}]`, recordsText());
    expect(answer).toEqual({ ...expected, body: { ...expected.body, table: fast } });
    const count = (table: string) => query(t, workspaceId, `SELECT count(*)::INT AS n, min(i)::INT AS least FROM ${table}`);
    expect(await count(fast)).toEqual(await count(whole));
  });

  test('members after the records apply: an overwrite replaces the table', async () => {
    const table = newTable();
    for (let round = 0; round < 2; round++) {
      const response = await send(`{"records":${recordsText()},"mode":"overwrite","table":"${table}"}`);
      expect(await bodyOf(response)).toEqual({ records_written: fillerCount, table });
    }
    expect(await query(t, workspaceId, `SELECT count(*)::INT AS n FROM ${table}`)).toEqual([{ n: fillerCount }]);
  });

  test('an idempotent retry is answered once, and the same key with another body is a conflict', async () => {
    const table = newTable();
    const text = body(`"table":"${table}"`, recordsText());
    const key = { 'idempotency-key': `large-${table}` };
    const first = await send(text, key);
    const retried = await send(text, key);
    expect(await bodyOf(retried)).toEqual(await bodyOf(first));
    expect(await query(t, workspaceId, `SELECT count(*)::INT AS n FROM ${table}`)).toEqual([{ n: fillerCount }]);
    const other = await send(body(`"table":"${table}"`, recordsText({ 0: '{"i":-1}' })), key);
    expect(other.status).toBe(409);
  });
});
