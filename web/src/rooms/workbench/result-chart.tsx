import { useEffect, useRef, useState } from 'preact/hooks';
import type { ResultColumn } from '../../ui/results-grid';
import { numericType, plottedKinds as kinds, type ChartKind } from '../../ui/chart-kinds';
/** Rows a chart draws at most: more would not be readable. */
const chartRows = 5_000;

/** A chart of the result (ECharts, loaded when the chart is first shown); the table stays its accessible alternative. */
export function ResultChart({ columns, rows }: { columns: ResultColumn[]; rows: unknown[][] }) {
  const numbers = columns.filter((column) => numericType.test(column.type)).map((column) => column.name);
  const [kind, setKind] = useState<ChartKind>('bar');
  const [x, setX] = useState(columns.find((column) => !numericType.test(column.type))?.name ?? columns[0]?.name ?? '');
  const [y, setY] = useState<string[]>(numbers.filter((name) => name !== x).slice(0, 1));
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!host.current || y.length === 0) return;
    let chart: { resize(): void; dispose(): void } | undefined;
    let cancelled = false;
    const resize = () => chart?.resize();
    void import('./echarts-view').then(({ drawChart }) => {
      if (cancelled || !host.current) return;
      chart = drawChart(host.current, { kind, x, y, columns: columns.map((column) => column.name), rows: rows.slice(0, chartRows) });
      window.addEventListener('resize', resize);
    });
    return () => {
      cancelled = true;
      window.removeEventListener('resize', resize);
      chart?.dispose();
    };
  }, [kind, x, y.join('\n'), columns, rows]);
  return (
    <div class="result-chart">
      <div class="chart-controls">
        <div class="field">
          <label for="chart-kind">Chart</label>
          <select id="chart-kind" value={kind} onChange={(event) => setKind(event.currentTarget.value as ChartKind)}>
            {kinds.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="chart-x">{kind === 'pie' ? 'Slices' : 'X axis'}</label>
          <select id="chart-x" value={x} onChange={(event) => setX(event.currentTarget.value)}>
            {columns.map((column) => (
              <option key={column.name} value={column.name}>
                {column.name}
              </option>
            ))}
          </select>
        </div>
        <fieldset class="chart-series">
          <legend>{kind === 'pie' ? 'Value' : 'Y axis'}</legend>
          {numbers.length === 0 ? <p class="field-hint">The result has no numeric column to draw.</p> : null}
          {numbers.map((name) => (
            <label key={name} class="check">
              <input
                type={kind === 'pie' ? 'radio' : 'checkbox'}
                name="chart-y"
                checked={y.includes(name)}
                onChange={(event) => setY(event.currentTarget.checked ? (kind === 'pie' ? [name] : [...y, name]) : y.filter((other) => other !== name))}
              />{' '}
              {name}
            </label>
          ))}
        </fieldset>
      </div>
      <div ref={host} class="chart-area" role="img" aria-label={`${kinds.find((option) => option.value === kind)?.label} chart of ${y.join(', ')} by ${x}`} />
      {rows.length > chartRows ? <p class="field-hint">The chart draws the first {chartRows.toLocaleString('en')} rows.</p> : null}
    </div>
  );
}
