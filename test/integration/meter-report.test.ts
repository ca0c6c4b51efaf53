import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../support/test-app';
import { bodyOf } from '../support/http';
import { type TestUser } from '../support/accounts';
import { createWorkspace, type TestPlan, addPlan } from '../support/workspaces';
import { billingEnv, deliver, recordingStripe, stripeEvent, subscription } from '../support/billing';
import { namedQuery } from '../../src/store/named-query';
import { meterReportStatusQuery } from '../../src/workflows/meter-report';
import { withWorkspace } from '../support/fixtures';

// Sold through Stripe under its own lookup key, three queries included, then a cent each.
const meteredPlan: TestPlan = {
  id: 'metered',
  name: 'Metered',
  monthly_price_eur: 10,
  included_queries: 3,
  overage_price_eur: 0.01,
  stripe_price_lookup_key: 'oxbow_test_metered',
};
const reports = namedQuery<{ workspace_id: string }, { usage_id: string; period_start: string; outcome: string }>(
  'test.meter_reports',
  'SELECT usage_id, period_start, outcome FROM usage_meter_reports WHERE workspace_id = :workspace_id ORDER BY usage_id',
);
const usageIds = namedQuery<{ workspace_id: string }, { id: string; created_at: string }>(
  'test.usage_ids',
  'SELECT id, created_at FROM query_usage WHERE workspace_id = :workspace_id',
);

describe('overage reported as meter events', () => {
  let t: TestApp;
  let stripe: ReturnType<typeof recordingStripe>;
  let user: TestUser;
  let billed: { id: string; customer: string };
  let unbilledId: string;

  const queries = async (workspaceId: string, count: number) => {
    for (let index = 0; index < count; index++) {
      expect(
        (await t.request(`/api/v1/workspaces/${workspaceId}/query`, { method: 'POST', json: { sql: `SELECT ${index}` }, token: user.accessToken })).status,
      ).toBe(200);
    }
    await t.services.usageRecorded();
  };
  const meterEvents = () =>
    stripe.requests.filter((request) => request.path === '/v1/billing/meter_events').map((request) => new URLSearchParams(request.body));

  beforeAll(async () => {
    stripe = recordingStripe();
    t = await startTestApp('local', { worker: true, env: { ...billingEnv(stripe.apiBase), STRIPE_METER_EVENT_NAME: 'oxbow_test_overage' } });
    await addPlan(t, meteredPlan);
    t.clock.set('2026-01-31T23:58:00Z');
    const { user: owner, workspaceId: id } = await withWorkspace(t, { label: 'metered' });
    user = owner;
    const { customer_id } = await bodyOf(await t.request(`/api/v1/workspaces/${id}/billing/setup`, { method: 'POST', token: user.accessToken }));
    billed = { id, customer: customer_id };
    const created = Math.floor(t.clock.now().getTime() / 1000);
    await deliver(
      t,
      stripeEvent(
        'customer.subscription.created',
        subscription({ id: 'sub_metered', customer: customer_id, status: 'active', lookupKey: 'oxbow_test_metered' }),
        { created },
      ),
    );
    unbilledId = (await createWorkspace(t, user, 'unbilled')).id;

    // January: five queries, two beyond the three included. February: four, one beyond.
    t.clock.set('2026-01-31T23:59:50Z');
    await queries(billed.id, 5);
    await queries(unbilledId, 5);
    t.clock.set('2026-02-01T00:00:10Z');
    await queries(billed.id, 4);
  });
  afterAll(async () => {
    await t.stop();
    stripe.stop();
  });

  test('each overage query is reported once, under its usage record’s id, in the month it ran; never twice', async () => {
    const { workflowId, report } = await t.services.billing.meterReports.runNow();
    expect(report).toEqual({ workspaces: 1, sent: 3, rejected: 0 });
    // The run answers its status query, as every durable run does.
    expect(await t.infra.temporal.client.workflow.getHandle(workflowId).query(meterReportStatusQuery)).toEqual({ state: 'reported', report });

    const sent = meterEvents();
    expect(sent).toHaveLength(3);
    const records = new Map((await t.infra.store.all(usageIds, { workspace_id: billed.id })).map((row) => [row.id, row.created_at]));
    for (const event of sent) {
      expect(event.get('event_name')).toBe('oxbow_test_overage');
      expect(event.get('payload[stripe_customer_id]')).toBe(billed.customer);
      expect(event.get('payload[value]')).toBe('1');
      const createdAt = records.get(event.get('identifier')!);
      expect(createdAt).toBeDefined();
      expect(Number(event.get('timestamp'))).toBe(Math.floor(Date.parse(createdAt!) / 1000));
    }
    const recorded = await t.infra.store.all(reports, { workspace_id: billed.id });
    expect(recorded.map((row) => row.usage_id).sort()).toEqual(sent.map((event) => event.get('identifier')!).sort());
    expect(recorded.filter((row) => row.period_start === '2026-01-01')).toHaveLength(2);
    expect(recorded.filter((row) => row.period_start === '2026-02-01')).toHaveLength(1);
    expect(new Set(recorded.map((row) => row.outcome))).toEqual(new Set(['reported']));

    // Nothing is sent twice; a later query beyond the allowance goes with the next run.
    const before = meterEvents().length;
    expect((await t.services.billing.meterReports.runNow()).report).toMatchObject({ sent: 0 });
    expect(meterEvents()).toHaveLength(before);
    await queries(billed.id, 1);
    expect((await t.services.billing.meterReports.runNow()).report).toMatchObject({ sent: 1 });
    expect(meterEvents()).toHaveLength(before + 1);
    expect(new Set(meterEvents().map((event) => event.get('identifier'))).size).toBe(before + 1);
  });

  test('the run is the scheduled workflow, labelled as meter_report work', () => {
    const schedule = t.services.schedules.find((definition) => definition.scheduleId === 'usage-meter-report');
    expect(schedule).toMatchObject({ every: '10m', labels: { kind: 'meter_report' } });
    expect(schedule!.workflow.name).toBe('meterReportWorkflow');
  });
});
