import { Elysia } from 'elysia';
import type { OpenAPIV3_1 } from 'openapi-types';

// The browsable page is Scalar's API reference, loaded by the browser from the jsDelivr CDN at this version.
const scalarScript = 'https://cdn.jsdelivr.net/npm/@scalar/api-reference@1.72.1/dist/browser/standalone.min.js';

/**
 * `/openapi.json` (the document of document.ts, built on the first request, once every route exists)
 * and `/docs`, a browsable page over it. Neither is an operation of the interface.
 */
export function openapiDocs(info: OpenAPIV3_1.InfoObject, describe: () => OpenAPIV3_1.Document) {
  let document: OpenAPIV3_1.Document | undefined;
  return new Elysia()
    .get('/openapi.json', () => (document ??= describe()), { detail: { hide: true } })
    .get('/docs', () => new Response(docsPage(info), { headers: { 'content-type': 'text/html; charset=utf-8' } }), { detail: { hide: true } });
}

function docsPage(info: OpenAPIV3_1.InfoObject): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${info.title} API</title>
</head>
<body>
<script id="api-reference" data-url="/openapi.json"></script>
<script src="${scalarScript}" crossorigin></script>
</body>
</html>`;
}
