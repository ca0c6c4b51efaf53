import openapiTS, { astToString } from 'openapi-typescript';

const banner = `// Generated from the service's /openapi.json by openapi-typescript (scripts/web/codegen) during the set-up.
// Do not edit: change the API, then run the set-up again.
`;

/** The console's API types (`paths`, `components`, `operations`) for an OpenAPI document. */
export async function apiTypes(document: unknown): Promise<string> {
  return banner + astToString(await openapiTS(document as Parameters<typeof openapiTS>[0], { defaultNonNullable: false }));
}
