// `npm test`: type-checks, lints and runs the tests that need no service, then starts the real services the
// others need (a throwaway Postgres cluster, MinIO and a Temporal dev server, each on a free port), runs those
// side by side (never two heavy ones together) and then the few that must run alone, and stops the services,
// also when tests fail or the run is interrupted. With arguments (`npm test -- test/e2e/x.test.ts -t name`),
// one `bun test` with them runs against the services instead of the phases.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { readToolchain, projectRoot, toolPaths } from '../setup/toolchain';
import { startTestServices, type TestServices } from '../services/test-services';
import { workflowBundle } from '../../src/temporal/worker';
import { addCounts, noTests, runBunTest, stopRunningTests, type TestRunOutcome } from './bun-test';
import { planTestRun } from './test-files';
import { FileTimings, runFilePool } from './file-pool';

const bunArgs = process.argv.slice(2);
const toolchain = await readToolchain();
const paths = toolPaths(process.env.OXBOW_TOOLS_DIR ?? join(projectRoot, '.tools'));
const timeout = ['--timeout', '120000'];
/** Tests in random order, so that none depends on another having run; `npm test -- <file>` keeps it too. */
const randomOrder = ['--randomize'];
/**
 * Test processes side by side: two for each core, as about half of a test's time is spent waiting on
 * Temporal, Postgres, S3 or a deadline (a full run uses about half a core for each); more at once only
 * make each slower.
 */
const parallelism = Number(process.env.OXBOW_TEST_PARALLEL ?? availableParallelism() * 2);
/** Per-file durations: the last run's order the next; the committed ones a fresh clone's first run. */
const lastTimings = join(projectRoot, 'node_modules', '.cache', 'oxbow', 'test-timings.json');
const timings = new FileTimings(lastTimings, [lastTimings, join(projectRoot, 'test', 'timings.json')]);

const scratch = mkdtempSync(join(tmpdir(), 'oxbow-test-run-'));
let services: TestServices | undefined;

async function stopServices(): Promise<void> {
  await services?.stop();
  rmSync(scratch, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    stopRunningTests();
    await stopServices();
    process.exit(130);
  });
}

const plan = bunArgs.length === 0 ? planTestRun(projectRoot) : undefined;
const outcomes: TestRunOutcome[] = [];
const runStartedAt = performance.now();

// Before any service starts: a type error, a lint finding (floating promises, I/O in workflows…) or an
// unused export or dependency fails the run at once; the tests that need no service run meanwhile.
const [checksPassed] = await Promise.all([
  runChecks(),
  plan &&
    plan.withoutServices.length > 0 &&
    runBunTest('without services', [...randomOrder, ...timeout, ...plan.withoutServices.map((file) => `./${file}`)], {
      cwd: projectRoot,
      env: process.env,
    }).then((outcome) => outcomes.push(outcome)),
]);
if (!checksPassed) {
  await stopServices();
  process.exit(1);
}

try {
  const startedAt = performance.now();
  const bundlePath = join(scratch, 'workflow-bundle.js');
  [services] = await Promise.all([startTestServices(toolchain, paths, scratch), buildWorkflowBundle(bundlePath)]);
  console.log(`[test] services up and workflows bundled in ${Math.round(performance.now() - startedAt)} ms: ${services.describe()}`);
  const env = { ...process.env, ...services.env, OXBOW_TEST_WORKFLOW_BUNDLE: bundlePath };
  if (!plan) {
    outcomes.push(await runBunTest('tests', [...timeout, ...randomOrder, ...bunArgs], { cwd: projectRoot, env }));
  } else {
    const runFiles = (files: string[]) =>
      runBunTest(files.join(' '), [...timeout, ...randomOrder, ...files.map((file) => `./${file}`)], { cwd: projectRoot, env, keepOutput: true });
    const sideBySide = [...plan.shared.map((path) => ({ path, heavy: false })), ...plan.heavy.map((path) => ({ path, heavy: true }))];
    outcomes.push(await runFilePool(`side by side (${parallelism} at once)`, sideBySide, { workers: parallelism, run: runFiles, timings }));
    // Each in a process of its own: what one leaves running (DuckDB's threads, timers) must not weigh on another's bounds.
    outcomes.push(
      await runFilePool(
        'alone',
        plan.alone.map((path) => ({ path, heavy: true })),
        { workers: 1, run: runFiles, timings },
      ),
    );
    timings.save();
  }
} catch (error) {
  console.error('[test] could not start the test services:', error);
  outcomes.push({ name: 'services', exitCode: 1, counts: noTests, seconds: 0 });
} finally {
  await stopServices();
}

const total = outcomes.reduce((sum, outcome) => addCounts(sum, outcome.counts), noTests);
console.log('');
for (const { name, counts, seconds, cpuSeconds, exitCode } of outcomes) {
  const cpu = cpuSeconds === undefined ? '' : ` (${cpuSeconds.toFixed(0)} s of CPU)`;
  console.log(
    `[test] ${name}: ${counts.pass} pass, ${counts.fail} fail, ${counts.skip} skip in ${counts.files} files, ${seconds.toFixed(1)} s${cpu}${exitCode === 0 ? '' : ` (exit ${exitCode})`}`,
  );
}
console.log(`[test] ${total.files} files in ${((performance.now() - runStartedAt) / 1000).toFixed(1)} s`);
console.log(`${total.pass} passed, ${total.fail} failed, ${total.skip} skipped`);
process.exit(outcomes.every((outcome) => outcome.exitCode === 0) ? 0 : 1);

/** The type check, the lint and the unused-export check side by side; their output is shown once each ends. */
async function runChecks(): Promise<boolean> {
  const bin = (name: string) => join(projectRoot, 'node_modules', '.bin', name);
  /** What the formatter keeps formatted (`npm run format` writes it): the code, not data or documents. */
  const formattedFiles = ['src/**/*.{ts,tsx}', 'test/**/*.{ts,tsx}', 'bench/**/*.ts', 'scripts/**/*.{ts,mjs}', 'cli/**/*.ts', 'web/src/**/*.{ts,tsx}'];
  const checks: [string, string[]][] = [
    ['type check', [bin('tsc'), '--noEmit', '-p', projectRoot]],
    ['type check of the web console', [bin('tsc'), '--noEmit', '-p', join(projectRoot, 'web')]],
    ['lint', [bin('oxlint'), '--type-aware', '--deny-warnings', '-c', join(projectRoot, '.oxlintrc.json'), 'src', 'test', 'bench', 'scripts', 'cli', 'web']],
    ['unused exports and dependencies', [bin('knip'), '--no-progress']],
    ['format', [bin('oxfmt'), '--check', ...formattedFiles]],
  ];
  const results = await Promise.all(
    checks.map(async ([name, argv]) => {
      const startedAt = performance.now();
      const child = Bun.spawn(argv, { cwd: projectRoot, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
      const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
      process.stdout.write(out);
      process.stderr.write(err);
      const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
      if (code === 0) console.log(`[test] ${name} passed in ${seconds} s`);
      else console.error(`[test] ${name} failed in ${seconds} s`);
      return code === 0;
    }),
  );
  return results.every(Boolean);
}

/** Built once here, read by every test process's workers (TEMPORAL_WORKFLOW_BUNDLE) instead of each bundling its own. */
async function buildWorkflowBundle(path: string): Promise<void> {
  const bundle = await workflowBundle();
  if (!('code' in bundle)) throw new Error('the workflow bundle was not built here');
  writeFileSync(path, bundle.code);
}
