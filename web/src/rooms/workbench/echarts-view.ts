import { BarChart, LineChart, PieChart, ScatterChart } from 'echarts/charts';
import { DatasetComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { init, use, type EChartsType } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import type { ChartKind } from '../../ui/chart-kinds';

// Only what the console draws, from echarts/core: the rest of the library stays out of the bundle.
use([BarChart, LineChart, PieChart, ScatterChart, DatasetComponent, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

export interface ChartSpec {
  kind: ChartKind;
  x: string;
  y: string[];
  /** A column whose values split the first measure into one series each. */
  series?: string | undefined;
  /** Bars or areas on top of each other. */
  stacked?: boolean | undefined;
  columns: string[];
  rows: unknown[][];
}

/** Series beyond this many cannot be told apart; the rest are left out. */
const maxSeries = 50;

/** Draws a result as an SVG chart in the element; the tooltip is drawn in the SVG (no inline HTML styles, which the policy forbids). */
export function drawChart(element: HTMLElement, spec: ChartSpec): { resize(): void; dispose(): void } {
  const chart: EChartsType = init(element, null, { renderer: 'svg' });
  // Numbers may arrive as text (64-bit integers and decimals keep their digits in JSON): the measures are read as numbers.
  const measures = new Set(spec.y.map((name) => spec.columns.indexOf(name)));
  const rows = spec.rows.map((row) => row.map((value, at) => (measures.has(at) && value !== null ? Number(value) : value)));
  const tooltip = { trigger: spec.kind === 'pie' ? 'item' : 'axis', renderMode: 'richText' } as const;
  if (spec.kind === 'pie') {
    chart.setOption({
      dataset: { source: [spec.columns, ...rows] },
      tooltip,
      legend: { type: 'scroll', top: 0 },
      series: [{ type: 'pie', encode: { itemName: spec.x, value: spec.y[0] }, radius: '65%' }],
    });
  } else if (spec.series && spec.columns.includes(spec.series) && spec.y[0]) {
    chart.setOption(splitOption(spec, rows, tooltip));
  } else {
    const type = spec.kind === 'area' ? 'line' : spec.kind;
    chart.setOption({
      dataset: { source: [spec.columns, ...rows] },
      tooltip,
      legend: { type: 'scroll', top: 0 },
      grid: { containLabel: true, left: 8, right: 16, top: 40, bottom: 8 },
      xAxis: { type: spec.kind === 'scatter' ? 'value' : 'category' },
      yAxis: { type: 'value' },
      series: spec.y.map((column) => ({ type, name: column, encode: { x: spec.x, y: column }, ...seriesLook(spec) })),
    });
  }
  return { resize: () => chart.resize(), dispose: () => chart.dispose() };
}

function seriesLook(spec: ChartSpec): Record<string, unknown> {
  return { ...(spec.kind === 'area' ? { areaStyle: {} } : {}), ...(spec.stacked && spec.kind !== 'scatter' ? { stack: 'total' } : {}) };
}

/** One measure split by a column's values: a series per value, the categories aligned across them. */
function splitOption(spec: ChartSpec, rows: unknown[][], tooltip: object): Record<string, unknown> {
  const [x, y, split] = [spec.columns.indexOf(spec.x), spec.columns.indexOf(spec.y[0]!), spec.columns.indexOf(spec.series!)];
  const label = (value: unknown) => (value === null || value === undefined ? '' : String(value));
  const categories = [...new Set(rows.map((row) => label(row[x])))];
  const names = [...new Set(rows.map((row) => label(row[split])))].slice(0, maxSeries);
  const type = spec.kind === 'area' ? 'line' : spec.kind;
  const series = names.map((name) => {
    const values = new Map(rows.filter((row) => label(row[split]) === name).map((row) => [label(row[x]), row[y]]));
    return { type, name, ...seriesLook(spec), data: categories.map((category) => values.get(category) ?? null) };
  });
  return {
    tooltip,
    legend: { type: 'scroll', top: 0 },
    grid: { containLabel: true, left: 8, right: 16, top: 40, bottom: 8 },
    xAxis: { type: 'category', data: categories },
    yAxis: { type: 'value' },
    series,
  };
}
