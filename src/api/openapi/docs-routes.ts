import { Elysia, t } from 'elysia';
import type { OpenAPIV3_1 } from 'openapi-types';
import { AppError } from '../../errors/app-error';
import { escapeHtml } from '../html';
import { docsAssets, docsPolicy } from './docs-assets';

const securityHeaders = { 'content-security-policy': docsPolicy, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
/** The assets change only with the package version, which a deploy brings. */
const assetCaching = 'public, max-age=3600';

/**
 * `/openapi.json` (the document of document.ts, built on the first request, once every route exists)
 * and `/docs`, a browsable page over it, with the viewer's files under `/docs/assets/`. None of them
 * is an operation of the interface.
 */
export function openapiDocs(info: OpenAPIV3_1.InfoObject, describe: () => OpenAPIV3_1.Document) {
  let document: OpenAPIV3_1.Document | undefined;
  return new Elysia()
    .get('/openapi.json', () => (document ??= describe()), { detail: { hide: true } })
    .get(
      '/docs',
      () => new Response(docsPage(info), { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', ...securityHeaders } }),
      {
        detail: { hide: true },
      },
    )
    .get(
      '/docs/assets/:file',
      ({ params }) => {
        const asset = Object.hasOwn(docsAssets, params.file) ? docsAssets[params.file] : undefined;
        if (!asset) throw new AppError('NOT_FOUND', `No asset ${params.file} in the API docs`);
        return new Response(asset.body(), { headers: { 'content-type': asset.type, 'cache-control': assetCaching, ...securityHeaders } });
      },
      { params: t.Object({ file: t.String() }), detail: { hide: true } },
    );
}

function docsPage(info: OpenAPIV3_1.InfoObject): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title)} API</title>
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="stylesheet" href="/docs/assets/docs.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/docs.js"></script>
</body>
</html>`;
}
