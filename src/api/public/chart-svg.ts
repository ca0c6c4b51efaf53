import * as echarts from 'echarts';
import type { ChartOption } from './chart-option';

export const chartWidth = 800;
export const chartHeight = 400;

/** SVG presentation attributes that ECharts writes into `style` attributes; anything else is dropped. */
const presentational = new Set([
  'font-size',
  'font-family',
  'font-weight',
  'font-style',
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'opacity',
]);

/**
 * The chart drawn on the server by ECharts' SSR renderer, as SVG a browser shows without JavaScript.
 * ECharts escapes every text it writes. The strict policy of public pages allows no inline style, so
 * the `style` attributes it writes become SVG presentation attributes (the same look) and its
 * `<style>` element (hover effects, which the interactive chart redoes) is dropped.
 */
export function renderChartSvg(option: ChartOption, label: string): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: chartWidth, height: chartHeight });
  try {
    chart.setOption(option);
    return withoutInlineStyles(chart.renderToSVGString()).replace('<svg ', `<svg role="img" aria-label="${label}" `);
  } finally {
    chart.dispose();
  }
}

function withoutInlineStyles(svg: string): string {
  return svg.replace(/<style\b[^>]*>[\s\S]*?<\/style>/g, '').replace(/ style="([^"]*)"/g, (_, declarations: string) =>
    declarations
      .split(';')
      .map((declaration) => {
        const colon = declaration.indexOf(':');
        const property = declaration.slice(0, colon).trim().toLowerCase();
        const value = declaration.slice(colon + 1).trim();
        return colon > 0 && presentational.has(property) && !/[<>&]/.test(value) ? ` ${property}="${value}"` : '';
      })
      .join(''),
  );
}
