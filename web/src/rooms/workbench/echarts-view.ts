import { BarChart, LineChart, PieChart, ScatterChart } from 'echarts/charts';
import { DatasetComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { init, use, type EChartsType } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

// Only what the workbench draws, from echarts/core: the rest of the library stays out of the bundle.
use([BarChart, LineChart, PieChart, ScatterChart, DatasetComponent, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

export type ChartKind = 'bar' | 'line' | 'area' | 'scatter' | 'pie';

export interface ChartSpec {
  kind: ChartKind;
  x: string;
  y: string[];
  columns: string[];
  rows: unknown[][];
}

/** Draws a result as an SVG chart in the element; the tooltip is drawn in the SVG (no inline HTML styles, which the policy forbids). */
export function drawChart(element: HTMLElement, spec: ChartSpec): { resize(): void; dispose(): void } {
  const chart: EChartsType = init(element, null, { renderer: 'svg' });
  // Numbers may arrive as text (64-bit integers and decimals keep their digits in JSON): the measures are read as numbers.
  const measures = new Set(spec.y.map((name) => spec.columns.indexOf(name)));
  const rows = spec.rows.map((row) => row.map((value, at) => (measures.has(at) && value !== null ? Number(value) : value)));
  const dataset = { source: [spec.columns, ...rows] };
  const tooltip = { trigger: spec.kind === 'pie' ? 'item' : 'axis', renderMode: 'richText' } as const;
  if (spec.kind === 'pie') {
    chart.setOption({ dataset, tooltip, legend: { type: 'scroll', top: 0 }, series: [{ type: 'pie', encode: { itemName: spec.x, value: spec.y[0] }, radius: '65%' }] });
  } else {
    const type = spec.kind === 'area' ? 'line' : spec.kind;
    chart.setOption({
      dataset,
      tooltip,
      legend: { type: 'scroll', top: 0 },
      grid: { containLabel: true, left: 8, right: 16, top: 40, bottom: 8 },
      xAxis: { type: spec.kind === 'scatter' ? 'value' : 'category' },
      yAxis: { type: 'value' },
      series: spec.y.map((column) => ({ type, name: column, encode: { x: spec.x, y: column }, ...(spec.kind === 'area' ? { areaStyle: {} } : {}) })),
    });
  }
  return { resize: () => chart.resize(), dispose: () => chart.dispose() };
}
