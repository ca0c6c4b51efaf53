import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { apiTypes } from '../../scripts/web/api-types';
import { serviceOpenapiDocument } from '../../scripts/web/openapi-document';
import { apiTypesPath } from '../../scripts/setup/steps/web-console';

test("the console's API types are those of the service's /openapi.json as it is now", async () => {
  const fresh = await apiTypes(await serviceOpenapiDocument());
  expect(readFileSync(apiTypesPath, 'utf8') === fresh).toBe(true);
}, 60_000);
