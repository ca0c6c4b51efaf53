import { useEffect, useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import type { components } from '../../api/schema';
import { Link } from '../../router/link';
import { pathTo } from '../../router/paths';
import type { RoomProps } from '../../router/routes';
import { atLeast } from '../../session/workspaces';
import { formatCount, formatEuros, formatTime } from '../../ui/format';
import { ErrorNotice, Loading, Notice } from '../../ui/notice';
import { Page, Section } from '../../ui/page';
import { StatusBadge } from '../../ui/status-badge';
import { usePolled } from '../../ui/use-polled';
import { useLoad } from '../../ui/use-load';
import { useWorkspace } from '../workspaces/use-workspace';
import { TableHead } from '../../ui/table-head';

type Plan = components['schemas']['PlanOffer'];
type Status = components['schemas']['BillingStatusResponse'];

const subscribed = new Set<Status['status']>(['active', 'trialing', 'past_due']);

/** A plan without a limit stores the largest number it can: shown as what it means. */
const limited = (value: number | null, show: (value: number) => string) => (value === null || value >= 2_147_483_647 ? 'no limit' : show(value));

/**
 * The workspace's plan and subscription, the plans on offer with an upgrade through the provider's
 * checkout, and the provider's portal for payment methods, invoices and cancelling; both come back here.
 */
export function Billing({ params, search }: RoomProps) {
  const workspaceId = params.workspaceId ?? '';
  const { workspace } = useWorkspace(workspaceId);
  const canManage = atLeast(workspace?.role, 'ADMIN');
  const path = { params: { path: { workspace_id: workspaceId } } };
  const returned = search.get('checkout');
  const [startPlan, setStartPlan] = useState<string | undefined>(undefined);
  // Back from a paid checkout, the plan changes once the provider's event arrives: read until it has.
  const status = usePolled(
    () => unwrap(api.GET('/api/v1/workspaces/{workspace_id}/billing/status', path)),
    [workspaceId],
    (data) => (returned === 'success' && !subscribed.has(data.status) ? 2000 : null),
  );
  const plans = useLoad(() => unwrap(api.GET('/api/v1/workspaces/{workspace_id}/billing/plans', path)), [workspaceId, status.data?.plan]);
  useEffect(() => {
    if (status.data && startPlan === undefined) setStartPlan(status.data.plan);
  }, [status.data]);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState<string | undefined>(undefined);
  const go = (what: string, open: () => Promise<{ url: string }>) => async () => {
    setBusy(what);
    setError(undefined);
    try {
      window.location.assign((await open()).url);
    } catch (caught) {
      setError(caught);
      setBusy(undefined);
    }
  };
  const data = status.data;
  const isSubscribed = data !== undefined && subscribed.has(data.status);
  return (
    <Page
      title="Billing"
      lead={
        <>
          The plan and its subscription. <Link href={pathTo('usage', { workspaceId })}>Usage this month</Link>
        </>
      }
    >
      {returned === 'success' ? (
        <Notice kind={isSubscribed ? 'success' : 'info'}>
          {isSubscribed
            ? `The subscription is ${data.status}: the workspace is on the ${data.plan} plan.`
            : 'Payment received by the provider; the plan changes as soon as it confirms the subscription…'}
        </Notice>
      ) : null}
      {returned === 'cancelled' ? <Notice kind="info">The checkout was left without paying; nothing changed.</Notice> : null}
      <ErrorNotice error={status.error} />
      {!data && status.loading ? <Loading /> : null}
      {data ? (
        <Section title="Subscription">
          <dl class="details">
            <dt>Plan</dt>
            <dd>{plans.data?.find((plan) => plan.id === data.plan)?.name ?? data.plan}</dd>
            <dt>Subscription</dt>
            <dd>
              <StatusBadge status={data.status} />
            </dd>
            {data.current_period_end ? (
              <>
                <dt>Current period</dt>
                <dd>
                  {formatTime(data.current_period_start)} to {formatTime(data.current_period_end)}
                </dd>
                <dt>Ends at the period’s end</dt>
                <dd>{data.cancel_at_period_end ? 'Yes' : 'No'}</dd>
              </>
            ) : null}
          </dl>
          {!data.billing_configured ? (
            <Notice kind="info">Payments are not set up on this service: the plan and its limits apply, and cannot be bought here.</Notice>
          ) : null}
          {data.billing_configured && canManage ? (
            <button
              type="button"
              class="button"
              disabled={busy !== undefined}
              onClick={go('portal', () => unwrap(api.POST('/api/v1/workspaces/{workspace_id}/billing/portal-session', path)))}
            >
              {busy === 'portal' ? 'Opening…' : 'Manage billing: payment methods, invoices, cancelling'}
            </button>
          ) : null}
          <ErrorNotice error={error} />
        </Section>
      ) : null}
      <Section title="Plans">
        <ErrorNotice error={plans.error} />
        {plans.data ? (
          <PlanTable
            plans={plans.data}
            canBuy={canManage && data?.billing_configured === true && !isSubscribed}
            busy={busy}
            onBuy={(plan) =>
              go(plan.id, () => unwrap(api.POST('/api/v1/workspaces/{workspace_id}/billing/checkout-session', { ...path, body: { plan: plan.id } })))()
            }
          />
        ) : (
          <Loading />
        )}
        {isSubscribed ? <p class="field-hint">The workspace has a subscription: change its plan in the billing portal.</p> : null}
        {!canManage ? <p class="field-hint">Owners and admins change the plan.</p> : null}
      </Section>
    </Page>
  );
}

function PlanTable({ plans, canBuy, busy, onBuy }: { plans: Plan[]; canBuy: boolean; busy: string | undefined; onBuy: (plan: Plan) => void }) {
  return (
    <div class="table-wrap">
      <table class="data-table plans">
        <caption class="visually-hidden">Plans on offer</caption>
        <TableHead
          columns={[
            'Plan',
            { label: 'Per month', number: true },
            { label: 'Queries included', number: true },
            { label: 'Beyond, each', number: true },
            { label: 'Queries a minute', number: true },
            { label: 'Storage', number: true },
            { label: 'Connections', number: true },
            { label: 'Jobs at once', number: true },
            <span class="visually-hidden">Action</span>,
          ]}
        />
        <tbody>
          {plans.map((plan) => (
            <tr key={plan.id} class={plan.current ? 'current' : undefined}>
              <th scope="row">
                {plan.name} {plan.current ? <StatusBadge status="active" label="current" /> : null}
              </th>
              <td class="number">{formatEuros(plan.monthly_price_eur)}</td>
              <td class="number">{limited(plan.included_queries, formatCount)}</td>
              <td class="number">{formatEuros(plan.overage_price_eur)}</td>
              <td class="number">{limited(plan.queries_per_minute, String)}</td>
              <td class="number">{limited(plan.storage_limit_gb, (gb) => `${formatCount(gb)} GB`)}</td>
              <td class="number">{limited(plan.connector_limit, String)}</td>
              <td class="number">{plan.max_running_jobs}</td>
              <td>
                {canBuy && plan.purchasable && !plan.current ? (
                  <button type="button" class="button primary small" disabled={busy !== undefined} onClick={() => onBuy(plan)}>
                    {busy === plan.id ? 'Opening checkout…' : `Upgrade to ${plan.name}`}
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
