import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { projectRoot } from '../../scripts/setup/toolchain';
import { apiTypesPath } from '../../scripts/setup/steps/web-console';

// In a process of its own, as the set-up makes them: the app built there owns every module it loads.
const generate = `
  const { apiTypes } = await import('./scripts/web/api-types');
  const { serviceOpenapiDocument } = await import('./scripts/web/openapi-document');
  process.stdout.write(await apiTypes(await serviceOpenapiDocument()));
`;

test("the console's API types are those of the service's /openapi.json as it is now", () => {
  const run = Bun.spawnSync([process.execPath, '-e', generate], { cwd: projectRoot, stdout: 'pipe', stderr: 'pipe' });
  expect(run.stderr.toString()).toBe('');
  const fresh = run.stdout.toString().split('\n');
  const kept = readFileSync(apiTypesPath, 'utf8').split('\n');
  // The first line that differs, with its neighbours, says which operation drifted.
  const at = fresh.findIndex((line, index) => line !== kept[index]);
  expect(at === -1 ? 'the same' : { line: at + 1, generated: fresh.slice(Math.max(0, at - 3), at + 3), kept: kept.slice(Math.max(0, at - 3), at + 3) }).toEqual(
    'the same',
  );
  expect(kept.length).toBe(fresh.length);
}, 60_000);
