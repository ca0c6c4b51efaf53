// `npm run bench -- <name…>`: starts the same real services as the tests, then runs each named
// benchmark (bench/<name>.ts) against them. Results print as tables and land in bench/results/.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readToolchain, projectRoot, toolPaths } from '../setup/toolchain';
import { startTestServices } from '../services/test-services';

const available = [
  'push',
  'push-files',
  'push-memory',
  'select-overhead',
  'tpch',
  'jobs',
  'isolation',
  'sync',
  's3-egress',
  'transforms',
  'public-chart',
  'usage',
  'catalog-contention',
  'push-burst',
  'large-result',
  'rolling-restart',
  'scale',
  'console',
];
const requested = process.argv.slice(2);
const names = requested.length ? requested : available;
const unknown = names.filter((name) => !available.includes(name));
if (unknown.length) {
  console.error(`unknown benchmark ${unknown.join(', ')}; available: ${available.join(', ')}`);
  process.exit(2);
}

const scratch = mkdtempSync(join(tmpdir(), 'oxbow-bench-'));
const services = await startTestServices(await readToolchain(), toolPaths(process.env.OXBOW_TOOLS_DIR ?? join(projectRoot, '.tools')), scratch);
let exitCode = 0;
try {
  for (const name of names) {
    console.log(`\n[bench] ${name}`);
    const run = Bun.spawn([process.execPath, join(projectRoot, 'bench', `${name}.ts`)], {
      cwd: projectRoot,
      stdout: 'inherit',
      stderr: 'inherit',
      env: { ...process.env, ...services.env },
    });
    exitCode ||= await run.exited;
  }
} finally {
  await services.stop();
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(exitCode);
