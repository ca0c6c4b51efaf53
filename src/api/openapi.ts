import { openapi } from '@elysiajs/openapi';

/** The machine-readable interface at `/openapi.json` (version 1.0.0) and a browsable page at `/docs`. */
export function openapiDocs() {
  return openapi({
    path: '/docs',
    specPath: '/openapi.json',
    provider: 'scalar',
    documentation: {
      info: {
        title: 'Oxbow',
        version: '1.0.0',
        description: 'Multi-tenant analytical SQL over lakehouse tables: push and sync data, query it with Postgres-flavoured SQL, run durable jobs and transforms, publish charts.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
    },
  });
}
