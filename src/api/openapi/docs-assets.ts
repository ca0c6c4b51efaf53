import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What `/docs` loads, all from the service (never a CDN): Swagger UI's own browser build from the
 * pinned npm package `swagger-ui-dist` (installed with the other packages by the set-up), and the
 * script that starts it. The page itself holds no script, so the strict policy below holds.
 */
const swaggerUiDir = dirname(fileURLToPath(import.meta.resolve('swagger-ui-dist/package.json')));

/**
 * Starts the viewer on the service's own document. No validator badge (it would call a public
 * validator), no link to another spec URL, deep links to operations.
 */
const startViewer = `(function () {
  'use strict';
  window.addEventListener('load', function () {
    window.ui = window.SwaggerUIBundle({
      url: '/openapi.json',
      dom_id: '#swagger-ui',
      deepLinking: true,
      validatorUrl: null,
      displayOperationId: true,
      presets: [window.SwaggerUIBundle.presets.apis],
      layout: 'BaseLayout'
    });
  });
})();
`;

const styles = `body { margin: 0; background: #fafafa; }
`;

interface DocsAsset {
  type: string;
  body: () => string | Uint8Array;
}

const fromPackage = (file: string, type: string): DocsAsset => {
  let cached: Uint8Array | undefined;
  return { type, body: () => (cached ??= readFileSync(join(swaggerUiDir, file))) };
};

export const docsAssets: Record<string, DocsAsset> = {
  'swagger-ui-bundle.js': fromPackage('swagger-ui-bundle.js', 'text/javascript; charset=utf-8'),
  'swagger-ui.css': fromPackage('swagger-ui.css', 'text/css; charset=utf-8'),
  'favicon-32x32.png': fromPackage('favicon-32x32.png', 'image/png'),
  'docs.js': { type: 'text/javascript; charset=utf-8', body: () => startViewer },
  'docs.css': { type: 'text/css; charset=utf-8', body: () => styles },
};

/**
 * Nothing but the service's own scripts, styles, images and fonts; requests ("Try it out") to the
 * service only. Swagger UI's style sheet draws its icons from data: URLs.
 */
export const docsPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
