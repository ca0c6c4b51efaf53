import { useEffect, useRef } from 'preact/hooks';
import { formatCount } from '../../ui/format';
import { cellText } from '../../ui/results-grid';
import type { ChartConfig, ChartType, QueryResult } from './sharing-api';

/** Rows a chart draws at most: more would not be readable. */
const chartRows = 5_000;

/** A chart as the builder previews it: ECharts for the plotted types, a table or a number for the others. */
export function ChartView({ type, config, result, title }: { type: ChartType; config: ChartConfig; result: QueryResult; title: string }) {
  if (type === 'table') return <ChartTable config={config} result={result} title={title} />;
  if (type === 'number') {
    const at = result.columns.findIndex((column) => column.name === config.y?.[0]);
    const value = at < 0 ? undefined : result.rows[0]?.[at];
    return (
      <p class="chart-number" aria-label={`${title}: ${String(value ?? 'no value')}`}>
        {typeof value === 'number' ? formatCount(value) : cellText(value ?? null)}
      </p>
    );
  }
  return <PlottedChart type={type} config={config} result={result} title={title} />;
}

function PlottedChart({
  type,
  config,
  result,
  title,
}: {
  type: Exclude<ChartType, 'table' | 'number'>;
  config: ChartConfig;
  result: QueryResult;
  title: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const y = config.y ?? [];
  useEffect(() => {
    if (!host.current || !config.x || y.length === 0) return;
    let chart: { resize(): void; dispose(): void } | undefined;
    let cancelled = false;
    const resize = () => chart?.resize();
    void import('../workbench/echarts-view').then(({ drawChart }) => {
      if (cancelled || !host.current) return;
      chart = drawChart(host.current, {
        kind: type,
        x: config.x!,
        y,
        series: config.series,
        stacked: config.stacked,
        columns: result.columns.map((column) => column.name),
        rows: result.rows.slice(0, chartRows),
      });
      window.addEventListener('resize', resize);
    });
    return () => {
      cancelled = true;
      window.removeEventListener('resize', resize);
      chart?.dispose();
    };
  }, [type, config.x, y.join('\n'), config.series, config.stacked, result]);
  if (!config.x || y.length === 0) return <p class="field-hint">Choose the x axis and at least one measure to draw the chart.</p>;
  const by = config.series ? `, one series per ${config.series}` : '';
  return (
    <div
      ref={host}
      class="chart-area"
      role="img"
      aria-label={`${title}: ${type} chart of ${y.join(', ')} by ${config.x}${by}${config.stacked ? ', stacked' : ''}`}
    />
  );
}

function ChartTable({ config, result, title }: { config: ChartConfig; result: QueryResult; title: string }) {
  const shown = (config.columns?.length ? config.columns : result.columns.map((column) => column.name))
    .map((name) => ({ name, at: result.columns.findIndex((column) => column.name === name) }))
    .filter((column) => column.at >= 0);
  return (
    <div class="table-wrap">
      <table class="data-table">
        <caption class="visually-hidden">{title}</caption>
        <thead>
          <tr>
            {shown.map((column) => (
              <th scope="col" key={column.name}>
                {column.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {result.rows.slice(0, 200).map((row, index) => (
            <tr key={index}>
              {shown.map((column) => (
                <td key={column.name}>{cellText(row[column.at])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
