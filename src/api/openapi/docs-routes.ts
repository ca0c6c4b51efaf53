import { openapi } from '@elysiajs/openapi';
import type { OpenAPIV3_1 } from 'openapi-types';

/**
 * `/openapi.json` and the browsable `/docs`, served by @elysiajs/openapi with the document of
 * document.ts: the plugin's own reading of the routes is switched off (every path excluded), and the
 * documentation it merges in is the app's document, built on the first request, once every route exists.
 */
export function openapiDocs(info: OpenAPIV3_1.InfoObject, describe: () => OpenAPIV3_1.Document) {
  let document: OpenAPIV3_1.Document | undefined;
  const current = () => (document ??= describe());
  return openapi({
    path: '/docs',
    specPath: '/openapi.json',
    provider: 'scalar',
    openapiVersion: '3.1.1',
    exclude: { paths: [/^/] },
    documentation: {
      info,
      get servers() {
        return current().servers;
      },
      get tags() {
        return current().tags;
      },
      get paths() {
        return current().paths;
      },
      get components() {
        return current().components;
      },
    },
  });
}
