import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * What public pages load, all from the service itself (never a CDN): ECharts' own browser build from
 * the npm package the server renders with, the script that makes the server's SVG interactive, and
 * the style sheet. The script reads each chart's option from a JSON data block, so no inline script
 * is needed.
 */
const hydrate = `(function () {
  'use strict';
  if (!window.echarts) return;
  var blocks = document.querySelectorAll('script[type="application/json"][data-chart]');
  Array.prototype.forEach.call(blocks, function (block) {
    var target = document.getElementById(block.getAttribute('data-chart'));
    if (!target) return;
    var option = JSON.parse(block.textContent);
    while (target.firstChild) target.removeChild(target.firstChild);
    var chart = window.echarts.init(target, null, { renderer: 'svg' });
    chart.setOption(option);
    target.setAttribute('data-interactive', 'true');
    window.addEventListener('resize', function () { chart.resize(); });
  });
})();
`;

const styles = `
body { font-family: system-ui, sans-serif; margin: 0; background: #f6f7f9; color: #1d2129; }
main { max-width: 880px; margin: 0 auto; padding: 24px 16px 48px; }
h1 { font-size: 1.6rem; margin: 0 0 8px; }
h2 { font-size: 1.2rem; margin: 0 0 4px; }
.description { color: #4e5969; margin: 0 0 16px; white-space: pre-line; }
figure.chart { background: #fff; border-radius: 8px; box-shadow: 0 1px 3px #0001; margin: 0 0 24px; padding: 16px; }
.chart-area { width: 100%; aspect-ratio: 2 / 1; }
.chart-area svg { width: 100%; height: auto; display: block; }
.number { font-size: 3rem; font-weight: 600; padding: 24px 0; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #e5e6eb; }
.meta { color: #86909c; font-size: .85rem; margin-top: 8px; }
.meta a { color: inherit; }
.markdown { margin: 0 0 24px; line-height: 1.5; }
.unavailable { color: #86909c; }
`;

const echartsPath = fileURLToPath(import.meta.resolve('echarts/dist/echarts.min.js'));
let echartsScript: string | undefined;

export const clientAssets = {
  'echarts.min.js': { type: 'text/javascript; charset=utf-8', body: () => (echartsScript ??= readFileSync(echartsPath, 'utf8')) },
  'public-chart.js': { type: 'text/javascript; charset=utf-8', body: () => hydrate },
  'public.css': { type: 'text/css; charset=utf-8', body: () => styles },
} as const;

export type ClientAsset = keyof typeof clientAssets;
