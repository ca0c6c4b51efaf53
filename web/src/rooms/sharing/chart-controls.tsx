import { numericType, plottedKinds } from '../../ui/chart-kinds';
import type { ChartConfig, ChartType, QueryResult } from './sharing-api';

const chartTypes: { value: ChartType; label: string }[] = [...plottedKinds, { value: 'table', label: 'Table' }, { value: 'number', label: 'Number' }];

interface Props {
  type: ChartType;
  config: ChartConfig;
  result: QueryResult | undefined;
  onChange: (type: ChartType, config: ChartConfig) => void;
}

/** What the chart draws from the result's columns: its type, the x axis, the measures, a column splitting them into series, stacking, a table's columns. */
export function ChartControls({ type, config, result, onChange }: Props) {
  const columns = result?.columns ?? [];
  const numbers = columns.filter((column) => numericType.test(column.type)).map((column) => column.name);
  const others = columns.filter((column) => !numericType.test(column.type)).map((column) => column.name);
  const oneY = type === 'pie' || type === 'number';
  const set = (patch: Partial<ChartConfig>) => onChange(type, { ...config, ...patch });
  const toggleY = (name: string, on: boolean) =>
    set({
      y: oneY
        ? on
          ? [name]
          : []
        : on
          ? numbers.filter((other) => other === name || config.y?.includes(other))
          : (config.y ?? []).filter((other) => other !== name),
    });
  return (
    <div class="chart-controls">
      <div class="field">
        <label for="chart-type">Chart type</label>
        <select
          id="chart-type"
          value={type}
          onChange={(event) => onChange(event.currentTarget.value as ChartType, oneYOf(event.currentTarget.value as ChartType, config))}
        >
          {chartTypes.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      {columns.length === 0 ? <p class="field-hint">The columns to draw appear once the query has answered.</p> : null}
      {columns.length > 0 && type !== 'table' && type !== 'number' ? (
        <div class="field">
          <label for="chart-x">{type === 'pie' ? 'Slices' : 'X axis'}</label>
          <select id="chart-x" value={config.x ?? ''} onChange={(event) => set({ x: event.currentTarget.value || undefined })}>
            <option value="">—</option>
            {columns.map((column) => (
              <option key={column.name} value={column.name}>
                {column.name}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {columns.length > 0 && type !== 'table' ? (
        <fieldset>
          <legend>{oneY ? 'Value' : 'Y axis (measures)'}</legend>
          {numbers.length === 0 ? <p class="field-hint">The result has no numeric column.</p> : null}
          {numbers.map((name) => (
            <label key={name} class="check">
              <input
                type={oneY ? 'radio' : 'checkbox'}
                name="chart-y"
                checked={config.y?.includes(name) ?? false}
                onChange={(event) => toggleY(name, event.currentTarget.checked)}
              />{' '}
              {name}
            </label>
          ))}
        </fieldset>
      ) : null}
      {columns.length > 0 && (type === 'bar' || type === 'line' || type === 'area' || type === 'scatter') ? (
        <div class="field">
          <label for="chart-series">Series by</label>
          <select
            id="chart-series"
            value={config.series ?? ''}
            onChange={(event) => set({ series: event.currentTarget.value || undefined })}
            aria-describedby="chart-series-hint"
          >
            <option value="">—</option>
            {others.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
          <p class="field-hint" id="chart-series-hint">
            One series per value of this column (for the first measure).
          </p>
        </div>
      ) : null}
      {type === 'bar' || type === 'line' || type === 'area' ? (
        <label class="check">
          <input type="checkbox" checked={config.stacked === true} onChange={(event) => set({ stacked: event.currentTarget.checked || undefined })} /> Stacked
        </label>
      ) : null}
      {columns.length > 0 && type === 'table' ? (
        <fieldset>
          <legend>Columns</legend>
          {columns.map((column) => (
            <label key={column.name} class="check">
              <input
                type="checkbox"
                checked={config.columns?.includes(column.name) ?? true}
                onChange={(event) => {
                  const chosen = config.columns ?? columns.map((other) => other.name);
                  set({
                    columns: event.currentTarget.checked
                      ? columns.map((other) => other.name).filter((name) => name === column.name || chosen.includes(name))
                      : chosen.filter((name) => name !== column.name),
                  });
                }}
              />{' '}
              {column.name}
            </label>
          ))}
        </fieldset>
      ) : null}
    </div>
  );
}

/** A type that takes one measure keeps only the first. */
function oneYOf(type: ChartType, config: ChartConfig): ChartConfig {
  return type === 'pie' || type === 'number' ? { ...config, y: config.y?.slice(0, 1) } : config;
}

/** The config as the service takes it for the type: only the fields the type reads. */
export function configFor(type: ChartType, config: ChartConfig): ChartConfig {
  switch (type) {
    case 'table':
      return config.columns ? { columns: config.columns } : {};
    case 'number':
      return { y: config.y?.slice(0, 1) };
    case 'pie':
      return { x: config.x, y: config.y?.slice(0, 1) };
    case 'scatter':
      return { x: config.x, y: config.y, ...(config.series ? { series: config.series } : {}) };
    default:
      return { x: config.x, y: config.y, ...(config.series ? { series: config.series } : {}), ...(config.stacked ? { stacked: true } : {}) };
  }
}
