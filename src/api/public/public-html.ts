import type { JsonValue } from '../../engine/sql/encode-values';
import type { ChartResult } from '../../sharing/chart-results';
import type { PublicChart, PublicPage } from '../../sharing/public-views';
import { jsonText } from '../../query/formats/json-text';
import { escapeHtml, jsonForScript } from '../html';
import { chartOption } from './chart-option';
import { renderChartSvg } from './chart-svg';
import { renderMarkdown } from './markdown';

interface Links {
  /** The page's own address, for Open Graph. */
  url: string;
  /** Where the chart's data downloads from (`?format=csv` for CSV). */
  data: (position: number) => string;
}

/** Drawn charts by the result they show: a cached result is drawn once per config, not once per view. */
const drawn = new WeakMap<ChartResult, Map<string, string>>();

/** Whole chart pages as sent, by the chart view they show (the same object while neither chart nor result changed) and its link. */
const pages = new WeakMap<PublicChart, { url: string; bytes: Uint8Array }>();
const utf8 = new TextEncoder();

/** The chart's page as UTF-8, made once per chart view and link: a view of unchanged data sends the bytes made for the first one. */
export function chartPageBytes(chart: PublicChart, links: Links): Uint8Array {
  const kept = pages.get(chart);
  if (kept?.url === links.url) return kept.bytes;
  const bytes = utf8.encode(chartPageHtml(chart, links));
  pages.set(chart, { url: links.url, bytes });
  return bytes;
}

function chartPageHtml(chart: PublicChart, links: Links): string {
  return document(
    { title: chart.title, description: chart.description, url: links.url },
    `<h1>${escapeHtml(chart.title)}</h1>\n${descriptionHtml(chart.description)}${figure(chart, 0, links, false)}`,
  );
}

export function publicPageHtml(page: PublicPage, links: Links): string {
  let position = 0;
  const blocks = page.blocks.map((block) => {
    if (block.kind === 'markdown') return `<div class="markdown">${renderMarkdown(block.text)}</div>`;
    const at = position++;
    if (block.kind === 'unavailable')
      return `<figure class="chart"><p class="unavailable">${block.title ? `${escapeHtml(block.title)}: ` : ''}this chart cannot be shown right now.</p></figure>`;
    return figure(block.chart, at, links, true);
  });
  return document(
    { title: page.title, description: page.description, url: links.url },
    `<h1>${escapeHtml(page.title)}</h1>\n${descriptionHtml(page.description)}${blocks.join('\n')}`,
  );
}

export function errorPageHtml(title: string, message: string): string {
  return document({ title, description: null, url: null }, `<h1>${escapeHtml(title)}</h1>\n<p class="description">${escapeHtml(message)}</p>`);
}

function document(meta: { title: string; description: string | null; url: string | null }, body: string): string {
  const title = escapeHtml(meta.title);
  const description = meta.description ? escapeHtml(meta.description) : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
${description ? `<meta name="description" content="${description}">\n` : ''}<meta property="og:type" content="website">
<meta property="og:site_name" content="Oxbow">
<meta property="og:title" content="${title}">
${description ? `<meta property="og:description" content="${description}">\n` : ''}${meta.url ? `<meta property="og:url" content="${escapeHtml(meta.url)}">\n` : ''}<link rel="stylesheet" href="/assets/public.css">
</head>
<body>
<main>
${body}
</main>
<script src="/assets/echarts.min.js"></script>
<script src="/assets/public-chart.js"></script>
</body>
</html>
`;
}

function descriptionHtml(description: string | null): string {
  return description ? `<p class="description">${escapeHtml(description)}</p>\n` : '';
}

/** One chart with its "data as of" time and downloads; on a page, with its own title. */
function figure(chart: PublicChart, position: number, links: Links, titled: boolean): string {
  const refreshed = escapeHtml(chart.result.refreshedAt);
  const data = escapeHtml(links.data(position));
  return `<figure class="chart">
${titled ? `<h2>${escapeHtml(chart.title)}</h2>\n${descriptionHtml(chart.description)}` : ''}${drawing(chart, position)}
<figcaption class="meta">Data as of <time datetime="${refreshed}">${escapeHtml(chart.result.refreshedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'))}</time> · download <a href="${data}?format=csv" download>CSV</a> · <a href="${data}">JSON</a></figcaption>
</figure>`;
}

function drawing(chart: PublicChart, position: number): string {
  const key = `${position}\n${chart.chartType}\n${chart.title}\n${JSON.stringify(chart.config)}`;
  let forResult = drawn.get(chart.result);
  if (!forResult) {
    forResult = new Map();
    drawn.set(chart.result, forResult);
  }
  let html = forResult.get(key);
  if (html === undefined) {
    html = draw(chart, position);
    forResult.set(key, html);
  }
  return html;
}

function draw(chart: PublicChart, position: number): string {
  const id = `chart-${position}`;
  if (chart.chartType === 'number') return `<div class="number" id="${id}">${escapeHtml(text(numberValue(chart)))}</div>`;
  if (chart.chartType === 'table') return tableHtml(chart, id);
  const option = chartOption(chart);
  return `<div class="chart-area" id="${id}">${renderChartSvg(option, escapeHtml(chart.title))}</div>
<script type="application/json" data-chart="${id}">${jsonForScript(JSON.stringify(option))}</script>`;
}

function numberValue(chart: PublicChart): JsonValue {
  const at = chart.result.columns.findIndex((column) => column.name === chart.config.y?.[0]);
  return chart.result.rows[0]?.[at] ?? null;
}

function tableHtml(chart: PublicChart, id: string): string {
  const names = chart.config.columns ?? chart.result.columns.map((column) => column.name);
  const positions = names.map((name) => chart.result.columns.findIndex((column) => column.name === name));
  const head = names.map((name) => `<th>${escapeHtml(name)}</th>`).join('');
  const rows = chart.result.rows.map((row) => `<tr>${positions.map((at) => `<td>${escapeHtml(text(row[at] ?? null))}</td>`).join('')}</tr>`).join('\n');
  return `<div class="table" id="${id}"><table><thead><tr>${head}</tr></thead><tbody>\n${rows}\n</tbody></table></div>`;
}

function text(value: JsonValue): string {
  if (value === null) return '';
  return typeof value === 'string' ? value : jsonText(value);
}
