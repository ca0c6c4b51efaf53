import { useId, useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client';
import type { components } from '../../api/schema';
import { Link } from '../../router/link';
import { pathTo } from '../../router/paths';
import type { RoomProps } from '../../router/routes';
import { formatBytes, formatCount, formatDuration, formatEuros } from '../../ui/format';
import { Form } from '../../ui/forms';
import { ErrorNotice, Loading } from '../../ui/notice';
import { Page, Section } from '../../ui/page';
import { useLoad } from '../../ui/use-load';
import { saveFile } from '../workbench/downloads';
import { UsagePlot, type DayValue } from './usage-plot';
import { TableHead } from '../../ui/table-head';

const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const daysAgo = (days: number) => isoDay(new Date(Date.now() - days * 86_400_000));

/** The workspace's usage: the month against the plan, plots per day, the records to export. */
export function Usage({ params }: RoomProps) {
  const workspaceId = params.workspaceId ?? '';
  const path = { path: { workspace_id: workspaceId } };
  const [period, setPeriod] = useState({ start_date: daysAgo(29), end_date: daysAgo(0) });
  const dashboard = useLoad(() => unwrap(api.GET('/api/v1/workspaces/{workspace_id}/usage/dashboard', { params: path })), [workspaceId]);
  const daily = useLoad(
    () => unwrap(api.GET('/api/v1/workspaces/{workspace_id}/usage/daily', { params: { ...path, query: period } })),
    [workspaceId, period.start_date, period.end_date],
  );
  const summary = useLoad(
    () => unwrap(api.GET('/api/v1/workspaces/{workspace_id}/usage', { params: { ...path, query: period } })),
    [workspaceId, period.start_date, period.end_date],
  );
  const month = dashboard.data ? { start_date: dashboard.data.period_start, end_date: daysAgo(0) } : undefined;
  const monthDaily = useLoad(
    () => (month ? unwrap(api.GET('/api/v1/workspaces/{workspace_id}/usage/daily', { params: { ...path, query: month } })) : Promise.resolve([])),
    [workspaceId, month?.start_date],
  );
  const exportAs = async (format: 'csv' | 'json') => {
    const blob = await unwrap(
      api.GET('/api/v1/workspaces/{workspace_id}/usage/export', { params: { ...path, query: { ...period, format } }, parseAs: 'blob' }),
    );
    saveFile(`usage-${period.start_date}-${period.end_date}.${format}`, format === 'csv' ? 'text/csv' : 'application/json', [blob as Blob]);
  };
  const days = daily.data ?? [];
  const series = (pick: (day: (typeof days)[number]) => number): DayValue[] => days.map((day) => ({ date: day.date, value: pick(day) }));
  let running = 0;
  const cumulative = (monthDaily.data ?? []).map((day) => ({ date: day.date, value: (running += day.query_count) }));
  return (
    <Page title="Usage" lead="Queries, bytes scanned and CPU time of the workspace, against its plan.">
      <ErrorNotice error={dashboard.error} />
      {dashboard.loading && !dashboard.data ? <Loading /> : null}
      {dashboard.data ? (
        <Section title={`This month on the ${dashboard.data.plan_name} plan`} id="this-month">
          <div class="meters">
            <Meter
              label="Queries"
              value={dashboard.data.queries_used}
              max={dashboard.data.queries_included}
              text={`${formatCount(dashboard.data.queries_used)} of ${formatCount(dashboard.data.queries_included)} included`}
            />
            <Meter
              label="Storage"
              value={dashboard.data.storage_used_gb}
              max={dashboard.data.storage_limit_gb}
              text={`${formatBytes(dashboard.data.storage_used_bytes)} of ${dashboard.data.storage_limit_gb} GB`}
            />
            <Meter
              label="Connections"
              value={dashboard.data.connectors_used}
              max={dashboard.data.connectors_limit ?? Math.max(1, dashboard.data.connectors_used)}
              text={
                dashboard.data.connectors_limit === null
                  ? `${dashboard.data.connectors_used} (no limit)`
                  : `${dashboard.data.connectors_used} of ${dashboard.data.connectors_limit}`
              }
            />
          </div>
          <dl class="details">
            <dt>Cost so far this month</dt>
            <dd>{formatEuros(dashboard.data.estimated_cost_mtd)}</dd>
            <dt>Queries beyond the plan</dt>
            <dd>
              {formatCount(dashboard.data.overage_queries)} at {formatEuros(dashboard.data.overage_price)} each
            </dd>
            <dt>Jobs at once</dt>
            <dd>{dashboard.data.max_running_jobs}</dd>
            <dt>Query history kept</dt>
            <dd>{dashboard.data.query_history_days} days</dd>
          </dl>
          <p>
            <Link href={pathTo('billing', { workspaceId })}>Plan and billing</Link>
          </p>
          {cumulative.length > 0 ? (
            <UsagePlot
              title="Queries this month, running total"
              days={cumulative}
              format={formatCount}
              shape="line"
              allowance={{ value: dashboard.data.queries_included, label: 'included in the plan' }}
            />
          ) : null}
        </Section>
      ) : null}
      <Section title="Per day">
        <Form
          class="inline-form"
          label="Period"
          submitLabel="Show"
          onSubmit={(values) => setPeriod({ start_date: values.start_date || period.start_date, end_date: values.end_date || period.end_date })}
          secondary={
            <>
              <button type="button" class="button" onClick={() => void exportAs('csv')}>
                Export CSV
              </button>
              <button type="button" class="button" onClick={() => void exportAs('json')}>
                Export JSON
              </button>
            </>
          }
        >
          <DateField label="From" name="start_date" value={period.start_date} />
          <DateField label="To" name="end_date" value={period.end_date} />
        </Form>
        <ErrorNotice error={daily.error ?? summary.error} />
        {daily.data ? (
          <div class="plots">
            <UsagePlot title="Queries per day" days={series((day) => day.query_count)} format={formatCount} shape="bars" />
            <UsagePlot title="Bytes scanned per day" days={series((day) => day.total_bytes_scanned)} format={formatBytes} shape="bars" />
            <UsagePlot title="CPU time per day" days={series((day) => day.total_cpu_ms)} format={formatDuration} shape="bars" />
          </div>
        ) : (
          <Loading />
        )}
        {summary.data ? <ByKind summary={summary.data} /> : null}
      </Section>
    </Page>
  );
}

function Meter({ label, value, max, text }: { label: string; value: number; max: number; text: string }) {
  const id = useId();
  return (
    <div class="meter">
      <label for={id}>{label}</label>
      <meter id={id} min={0} max={max} value={Math.min(value, max)} high={max * 0.8} optimum={0} aria-describedby={`${id}-text`} />
      <span id={`${id}-text`}>{text}</span>
    </div>
  );
}

function DateField({ label, name, value }: { label: string; name: string; value: string }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} type="date" name={name} defaultValue={value} required />
    </div>
  );
}

type Summary = components['schemas']['UsageSummaryResponse'];

function ByKind({ summary }: { summary: Summary }) {
  return (
    <div class="table-wrap">
      <table class="data-table">
        <caption>
          By kind, {summary.period_start} to {summary.period_end}
        </caption>
        <TableHead
          columns={[
            'Kind',
            { label: 'Count', number: true },
            { label: 'Failed', number: true },
            { label: 'Scanned', number: true },
            { label: 'CPU', number: true },
            { label: 'Rows', number: true },
            { label: 'Cost', number: true },
          ]}
        />
        <tbody>
          {summary.by_kind.map((kind) => (
            <tr key={kind.kind}>
              <td>{kind.kind}</td>
              <td class="number">{formatCount(kind.count)}</td>
              <td class="number">{formatCount(kind.failed_count)}</td>
              <td class="number">{formatBytes(kind.bytes_scanned)}</td>
              <td class="number">{formatDuration(kind.cpu_ms)}</td>
              <td class="number">{formatCount(kind.rows_returned)}</td>
              <td class="number">{formatEuros(kind.cost_eur)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
