// `npm test`: type-checks and lints, starts the real services the tests need (a throwaway Postgres cluster,
// MinIO and a Temporal dev server, each on a free port), runs every bun:test suite against them and
// stops them all, also when tests fail or the run is interrupted.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readToolchain, projectRoot, toolPaths } from '../setup/toolchain';
import { startTestServices, type TestServices } from '../services/test-services';

const testArgs = process.argv.slice(2);
const toolchain = await readToolchain();
const paths = toolPaths(process.env.OXBOW_TOOLS_DIR ?? join(projectRoot, '.tools'));

// Before any service starts: a type error, a lint finding (floating promises, I/O in workflows…) or
// an unused export or dependency fails the run at once.
const bin = (name: string) => join(projectRoot, 'node_modules', '.bin', name);
const checks: [string, string[]][] = [
  ['type check', [bin('tsc'), '--noEmit', '-p', projectRoot]],
  ['type check of the web console', [bin('tsc'), '--noEmit', '-p', join(projectRoot, 'web')]],
  ['lint', [bin('oxlint'), '--type-aware', '--deny-warnings', '-c', join(projectRoot, '.oxlintrc.json'), 'src', 'test', 'bench', 'scripts', 'cli', 'web']],
  ['unused exports and dependencies', [bin('knip'), '--no-progress']],
];
for (const [name, argv] of checks) {
  if (Bun.spawnSync(argv, { cwd: projectRoot, stdout: 'inherit', stderr: 'inherit' }).exitCode !== 0) {
    console.error(`[test] ${name} failed`);
    process.exit(1);
  }
}

const scratch = mkdtempSync(join(tmpdir(), 'oxbow-test-run-'));
let services: TestServices | undefined;
let tests: ReturnType<typeof Bun.spawn> | undefined;

async function stopServices(): Promise<void> {
  await services?.stop();
  rmSync(scratch, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    tests?.kill('SIGTERM');
    await stopServices();
    process.exit(130);
  });
}

let exitCode = 1;
try {
  const startedAt = performance.now();
  services = await startTestServices(toolchain, paths, scratch);
  console.log(`[test] services up in ${Math.round(performance.now() - startedAt)} ms: ${services.describe()}`);
  tests = Bun.spawn([process.execPath, 'test', '--randomize', '--timeout', '120000', ...testArgs], {
    cwd: projectRoot,
    stdout: 'inherit',
    stderr: 'inherit',
    env: { ...process.env, ...services.env },
  });
  exitCode = await tests.exited;
} catch (error) {
  console.error('[test] could not start the test services:', error);
} finally {
  await stopServices();
}
process.exit(exitCode);
