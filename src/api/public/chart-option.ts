import { isNumericType } from '../../sharing/chart-config';
import type { PublicChart } from '../../sharing/public-views';
import type { JsonValue } from '../../engine/sql/encode-values';

/** An ECharts option: plain JSON, the same for the server's SVG and the browser's interactive chart. */
export type ChartOption = Record<string, unknown>;

/** Series beyond this many are one too many to tell apart; the rest are left out. */
const maxSeries = 50;
const palette = ['#5470c6', '#91cc75', '#fac858', '#ee6666', '#73c0de', '#3ba272', '#fc8452', '#9a60b4', '#ea7ccc'];

/**
 * The ECharts option drawing a bar, line, area, scatter or pie chart from its result: columns by the
 * config's names, categories and series in the order the rows give them. Animation is off (the server
 * draws the final frame) and tooltips are drawn inside the chart (`richText`), never as HTML.
 */
export function chartOption(chart: PublicChart): ChartOption {
  const { chartType, config, result } = chart;
  const index = new Map(result.columns.map((column, position) => [column.name, position]));
  const column = (name: string | undefined) => (name === undefined ? -1 : (index.get(name) ?? -1));
  const base: ChartOption = {
    animation: false,
    color: palette,
    textStyle: { fontFamily: 'system-ui, sans-serif' },
    tooltip: { trigger: chartType === 'pie' || chartType === 'scatter' ? 'item' : 'axis', renderMode: 'richText' },
  };
  if (chartType === 'pie') {
    const [x, y] = [column(config.x), column(config.y?.[0])];
    const data = result.rows.map((row) => ({ name: label(row[x]), value: numberOf(row[y]) }));
    return { ...base, legend: { type: 'scroll', bottom: 0 }, series: [{ type: 'pie', radius: ['0%', '65%'], data }] };
  }
  const x = column(config.x);
  const xNumeric = chartType === 'scatter' && isNumericType(result.columns[x]?.type ?? '');
  const series = seriesOf(chart, x, column(config.series), xNumeric);
  const categories = chartType === 'scatter' && xNumeric ? undefined : distinct(result.rows.map((row) => label(row[x])));
  return {
    ...base,
    legend: series.length > 1 ? { type: 'scroll', top: 0 } : undefined,
    grid: { left: 56, right: 24, top: series.length > 1 ? 40 : 24, bottom: 40, containLabel: true },
    xAxis: categories
      ? { type: 'category', data: categories, name: config.x, nameLocation: 'middle', nameGap: 28 }
      : { type: 'value', name: config.x, nameLocation: 'middle', nameGap: 28 },
    yAxis: { type: 'value' },
    series,
  };
}

function seriesOf(chart: PublicChart, x: number, split: number, xNumeric: boolean): ChartOption[] {
  const { chartType, config, result } = chart;
  const type = chartType === 'area' ? 'line' : chartType;
  const extra: ChartOption = {
    ...(chartType === 'area' ? { areaStyle: {} } : {}),
    ...(config.stacked ? { stack: 'total' } : {}),
    ...(chartType === 'line' || chartType === 'area' ? { showSymbol: result.rows.length <= 100 } : {}),
  };
  const yColumns = (config.y ?? []).map((name) => ({ name, at: result.columns.findIndex((column) => column.name === name) }));
  const point = (row: JsonValue[], y: number) => (chartType === 'scatter' ? [xNumeric ? numberOf(row[x]) : label(row[x]), numberOf(row[y])] : numberOf(row[y]));
  if (split < 0) {
    if (chartType === 'scatter') return yColumns.map(({ name, at }) => ({ name, type, data: result.rows.map((row) => point(row, at)) }));
    return yColumns.map(({ name, at }) => ({ name, type, ...extra, data: result.rows.map((row) => point(row, at)) }));
  }
  // One measure split by a column's values: one series per value, the categories aligned across series.
  const y = yColumns[0]!.at;
  const names = distinct(result.rows.map((row) => label(row[split]))).slice(0, maxSeries);
  if (chartType === 'scatter') {
    return names.map((name) => ({ name, type, data: result.rows.filter((row) => label(row[split]) === name).map((row) => point(row, y)) }));
  }
  const categories = distinct(result.rows.map((row) => label(row[x])));
  return names.map((name) => {
    const values = new Map(result.rows.filter((row) => label(row[split]) === name).map((row) => [label(row[x]), numberOf(row[y])]));
    return { name, type, ...extra, data: categories.map((category) => values.get(category) ?? null) };
  });
}

function distinct(values: string[]): string[] {
  return [...new Set(values)];
}

/** A category or series label: the value as text (null as an empty string). */
function label(value: JsonValue | undefined): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A measure as a number: big integers and exact decimals arrive as text. */
function numberOf(value: JsonValue | undefined): number | null {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}
