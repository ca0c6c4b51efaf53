import { join } from 'node:path';
import { projectRoot, toolPaths } from '../setup/toolchain';

const banner = `// Generated from the service's /openapi.json by openapi-typescript during the set-up.
// Do not edit: change the API, then run the set-up again.
`;

interface OpenapiTypescript {
  default: (document: unknown, options: { defaultNonNullable: boolean }) => Promise<unknown>;
  astToString: (ast: unknown) => string;
}

/**
 * The console's API types (`paths`, `components`, `operations`) for an OpenAPI document, by the
 * openapi-typescript the set-up installs into the tools folder (scripts/setup/openapi-typescript: it
 * needs TypeScript 5's compiler API, which the project's TypeScript 7 has not). Fields with a default
 * stay optional in requests (`defaultNonNullable: false`), as the service takes them.
 */
export async function apiTypes(document: unknown): Promise<string> {
  const dir = toolPaths(process.env.OXBOW_TOOLS_DIR ?? join(projectRoot, '.tools')).openapiTypescriptDir;
  const generator = (await import(join(dir, 'node_modules', 'openapi-typescript', 'dist', 'index.mjs'))) as OpenapiTypescript;
  return banner + generator.astToString(await generator.default(document, { defaultNonNullable: false }));
}
