/** The charts ECharts draws for the console (the workbench's and the chart builder's). */
export type ChartKind = 'bar' | 'line' | 'area' | 'scatter' | 'pie';

export const plottedKinds: { value: ChartKind; label: string }[] = [
  { value: 'bar', label: 'Bars' },
  { value: 'line', label: 'Line' },
  { value: 'area', label: 'Area' },
  { value: 'scatter', label: 'Scatter' },
  { value: 'pie', label: 'Pie' },
];

/** A column a chart can measure: DuckDB's integer, decimal and floating types. */
export const numericType = /INT|DECIMAL|DOUBLE|FLOAT|REAL|NUMERIC/i;
