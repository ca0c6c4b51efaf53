import { Elysia, t } from 'elysia';
import type { Services } from '../../runtime/services';
import { AppError } from '../../errors/app-error';
import { CsvResult } from '../../query/formats/csv-result';
import { jsonText } from '../../query/formats/json-text';
import type { PublicChart } from '../../sharing/public-views';
import type { PublicationRow } from '../../sharing/publication-queries';
import { ownerRouting } from '../plugins/owner-routing';
import { clientAddress } from '../plugins/client-address';
import { operation } from '../openapi/operation';
import { queryInteger } from '../query-params';
import { clientAssets, type ClientAsset } from './client-assets';
import { dataQuery, publicModels as m, tokenParams } from './model';
import { chartPageBytes, errorPageHtml, publicPageHtml } from './public-html';
import { htmlResponse, pageHeaderValues, publicHeaders } from './security-headers';

const tags = ['Public'];
const pageHeaders = ['Content-Security-Policy', 'Referrer-Policy', 'X-Content-Type-Options', 'Cache-Control'] as const;
const dataHeaders = ['Referrer-Policy', 'X-Content-Type-Options', 'Cache-Control'] as const;

/**
 * Public charts and pages, outside the versioned prefix and without credentials: `/c/{token}` and
 * `/p/{token}` are HTML (the chart drawn as SVG on the server, made interactive by the same library in
 * the browser), `/c/{token}/data` the chart's data. They show nothing but titles, descriptions,
 * markdown and the charts' data: no SQL, no workspace, no table. A link that does not open (unknown,
 * replaced, withdrawn, expired) is a 404 page.
 */
export function publicRoutes(services: Pick<Services, 'sharing' | 'config' | 'cluster' | 'logger'>) {
  const views = services.sharing.publicViews;
  const base = services.config.http.publicBaseUrl;
  const routing = ownerRouting(services);
  /**
   * Each view is counted where it arrives; its link names the workspace, whose owner draws it (its
   * results cache lives there), told that the view was counted.
   */
  const counted = (request: Request) => routing.trusted(request)?.counted === true;
  const chartOf = async (request: Request, token: string, address: string | undefined): Promise<PublicChart | Response> => {
    const link = await views.openChart(token, address, counted(request));
    return (await routing.route(request, link.chart.workspace_id, { counted: true })) ?? views.showChart(link);
  };
  const pageOf = async (request: Request, token: string, address: string | undefined): Promise<PublicationRow | Response> => {
    const publication = await views.openPage(token, address, counted(request));
    return (await routing.route(request, publication.workspace_id, { counted: true })) ?? publication;
  };
  return new Elysia()
    .use(clientAddress(services.config.http.trustProxy))
    .get(
      '/c/:token',
      async ({ request, params, clientAddress, set }) => {
        const links = { url: `${base}/c/${params.token}`, data: () => `/c/${params.token}/data` };
        try {
          const chart = await chartOf(request, params.token, clientAddress);
          if (chart instanceof Response) return chart;
          const page = chartPageBytes(chart, links);
          // The bytes themselves, with the headers on the context: a Response would be copied once more to add the request id.
          Object.assign(set.headers, pageHeaderValues);
          return page;
        } catch (error) {
          return errorPage(error);
        }
      },
      {
        params: tokenParams,
        detail: operation({
          id: 'viewPublicChart',
          tags,
          summary: 'A public chart as an HTML page (SVG drawn on the server; no credentials)',
          description: 'Rate limited per client address and per link (429). A chart whose query fails now is a 503 page that says no more.',
          success: [{ status: 200, body: 'html' }],
          errors: [404, 429, 503],
          errorBody: 'html',
          headers: [...pageHeaders],
        }),
      },
    )
    .get(
      '/c/:token/data',
      ({ request, params, query, clientAddress }) => dataOrError(() => chartOf(request, params.token, clientAddress), query.format ?? 'json'),
      {
        params: tokenParams,
        query: dataQuery,
        response: m.PublicChartData,
        detail: operation({
          id: 'getPublicChartData',
          tags,
          summary: "A public chart's data as JSON (or CSV with ?format=csv; no credentials)",
          success: [{ status: 200, mediaTypes: ['text/csv'] }],
          errors: [404, 429, 503],
          headers: [...dataHeaders],
        }),
      },
    )
    .get(
      '/p/:token',
      async ({ request, params, clientAddress }) => {
        const links = { url: `${base}/p/${params.token}`, data: (position: number) => `/p/${params.token}/charts/${position}/data` };
        return pageOrError(async () => {
          const publication = await pageOf(request, params.token, clientAddress);
          return publication instanceof Response ? publication : publicPageHtml(await views.showPage(publication), links);
        });
      },
      {
        params: tokenParams,
        detail: operation({
          id: 'viewPublicPage',
          tags,
          summary: 'A public page (dashboard) as HTML: its charts drawn as SVG and its markdown (no credentials)',
          success: [{ status: 200, body: 'html' }],
          errors: [404, 429],
          errorBody: 'html',
          headers: [...pageHeaders],
        }),
      },
    )
    .get(
      '/p/:token/charts/:position/data',
      ({ request, params, query, clientAddress }) =>
        dataOrError(async () => {
          const publication = await pageOf(request, params.token, clientAddress);
          return publication instanceof Response ? publication : views.showPageChart(publication, params.position);
        }, query.format ?? 'json'),
      {
        params: t.Object({ token: t.String({ maxLength: 200 }), position: queryInteger('position', { minimum: 0, maximum: 1_000 }) }),
        query: dataQuery,
        response: m.PublicChartData,
        detail: operation({
          id: 'getPublicPageChartData',
          tags,
          summary: "The data of a public page's chart, by its position among the page's charts (JSON, or CSV with ?format=csv)",
          success: [{ status: 200, mediaTypes: ['text/csv'] }],
          errors: [404, 429, 503],
          headers: [...dataHeaders],
        }),
      },
    )
    .get(
      '/assets/:file',
      ({ params }) => {
        const asset = Object.hasOwn(clientAssets, params.file) ? clientAssets[params.file as ClientAsset] : undefined;
        if (!asset) throw new AppError('NOT_FOUND', `No asset named ${params.file}`);
        return new Response(asset.body(), {
          headers: { 'content-type': asset.type, 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' },
        });
      },
      {
        params: t.Object({ file: t.String({ maxLength: 100, description: 'echarts.min.js, public-chart.js or public.css' }) }),
        detail: operation({
          id: 'getPublicAsset',
          tags,
          summary: 'What public pages load: the charting library, the script that makes charts interactive, the style sheet',
          success: [{ status: 200, body: 'text', mediaTypes: ['text/javascript', 'text/css'] }],
          errors: [404],
        }),
      },
    );
}

/** The page (or the owner's answer), or its error page. */
async function pageOrError(render: () => Promise<string | Response>): Promise<Response> {
  try {
    const page = await render();
    return page instanceof Response ? page : htmlResponse(page);
  } catch (error) {
    return errorPage(error);
  }
}

/** 404 for a link that does not open, 429 and 503 with Retry-After, each a page with the same policy. */
function errorPage(error: unknown): Response {
  if (!(error instanceof AppError)) throw error;
  if (error.code === 'NOT_FOUND') return htmlResponse(errorPageHtml('Not found', 'This link does not exist, was withdrawn or has expired.'), 404);
  if (error.status === 429)
    return htmlResponse(errorPageHtml('Too many views', 'Too many views in the last minute. Try again shortly.'), 429, {
      'retry-after': error.headers['retry-after'] ?? '60',
    });
  if (error.code === 'CHART_UNAVAILABLE' || error.status === 503) {
    return htmlResponse(errorPageHtml('Not available', 'This chart cannot be shown right now. Try again later.'), 503, {
      'retry-after': error.headers['retry-after'] ?? '60',
    });
  }
  throw error;
}

/** The data (or the owner's answer), or an error in the envelope carrying the public answers' headers. */
async function dataOrError(load: () => Promise<PublicChart | Response>, format: 'json' | 'csv'): Promise<Response> {
  try {
    const chart = await load();
    return chart instanceof Response ? chart : dataResponse(chart, format);
  } catch (error) {
    if (error instanceof AppError) Object.assign(error.headers, publicHeaders);
    throw error;
  }
}

function dataResponse(chart: PublicChart, format: 'json' | 'csv'): Response {
  const { columns, rows, refreshedAt } = chart.result;
  if (format === 'csv') {
    const csv = new CsvResult();
    csv.columns(columns);
    csv.rows(rows);
    const name =
      chart.title
        .replace(/[^A-Za-z0-9_-]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 80) || 'chart';
    return new Response(csv.body().join(''), {
      headers: { 'content-type': csv.contentType, 'content-disposition': `attachment; filename="${name}.csv"`, ...publicHeaders },
    });
  }
  const body = jsonText({ title: chart.title, columns, rows, row_count: rows.length, refreshed_at: refreshedAt });
  return new Response(body, { headers: { 'content-type': 'application/json', ...publicHeaders } });
}
