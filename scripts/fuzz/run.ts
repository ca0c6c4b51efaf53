// `npm run fuzz [-- --max-time <seconds>] [--base-url <url> [--data-dir <its DATA_DIR>]]`: fuzzes the
// interface from its own /openapi.json with schemathesis, every check on, authenticated as a fresh
// verified user with a workspace of data. Without --base-url it starts the service on its embedded
// defaults in a temporary DATA_DIR and stops it afterwards. Exits non-zero on any failure.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot, toolPaths } from '../setup/toolchain';
import { schemathesisBinary } from '../setup/steps/schemathesis';
import { prepareFixture } from './fuzz-fixture';
import { summarize } from './fuzz-report';
import { externalService, startOwnService, type FuzzTarget } from './fuzz-target';

// An access token lives 15 minutes and the fuzzer holds one for the whole run.
const longestRunSeconds = 14 * 60;

const { values } = parseArgs({
  args: process.argv.slice(2),
  // One worker: with two, Python 3.11's ast module (which Hypothesis uses to describe its filters) can fail
  // under concurrent use, and the service on this machine is the bottleneck anyway.
  options: {
    'max-time': { type: 'string', default: '300' },
    'base-url': { type: 'string' },
    'data-dir': { type: 'string' },
    seed: { type: 'string' },
    workers: { type: 'string', default: '1' },
  },
});
const maxTime = Number(values['max-time']);
if (!Number.isInteger(maxTime) || maxTime < 10 || maxTime > longestRunSeconds) {
  console.error(`--max-time takes whole seconds from 10 to ${longestRunSeconds} (the fuzzer's access token lives 15 minutes)`);
  process.exit(2);
}

const scratch = mkdtempSync(join(tmpdir(), 'oxbow-fuzz-'));
let target: FuzzTarget | undefined;
let exitCode = 1;
try {
  target = values['base-url'] ? externalService(values['base-url'], values['data-dir']) : await startOwnService(scratch);
  console.log(`[fuzz] service at ${target.baseUrl}${target.owned ? ` (DATA_DIR ${target.env.DATA_DIR})` : ''}`);
  const fixture = await prepareFixture(target);
  console.log(`[fuzz] fixture ready: workspace ${fixture.workspaceId}; running schemathesis for up to ${maxTime} s`);
  const reportDir = join(scratch, 'report');
  const config = join(scratch, 'schemathesis.toml');
  writeFileSync(config, `${readFileSync(join(projectRoot, 'fuzz', 'schemathesis.toml'), 'utf8')}\n[dictionaries.jobs]\nvalues = ["${fixture.jobId}"]\n`);
  const run = Bun.spawn(
    [
      schemathesisBinary(toolPaths(process.env.OXBOW_TOOLS_DIR ?? join(projectRoot, '.tools'))),
      '--config-file',
      config,
      'run',
      `${target.baseUrl}/openapi.json`,
      '--url',
      target.baseUrl,
      '--checks',
      'all',
      '--max-time',
      String(maxTime),
      '--workers',
      values.workers!,
      '--request-timeout',
      '60',
      '--report',
      'ndjson',
      '--report-dir',
      reportDir,
      ...(values.seed ? ['--seed', values.seed] : []),
    ],
    {
      // schemathesis keeps its example database and cache in its working folder: the run's own.
      cwd: scratch,
      stdout: 'inherit',
      stderr: 'inherit',
      env: {
        ...process.env,
        FUZZ_ACCESS_TOKEN: fixture.accessToken,
        FUZZ_API_KEY: fixture.apiKey,
        FUZZ_WORKSPACE_ID: fixture.workspaceId,
        FUZZ_SPARE_WORKSPACE_ID: fixture.spareWorkspaceId,
      },
    },
  );
  exitCode = await run.exited;
  console.log(await summarize(reportDir, target.owned ? join(scratch, 'service.log') : undefined));
} catch (error) {
  console.error('[fuzz]', error instanceof Error ? error.message : error);
} finally {
  await target?.stop();
  if (exitCode === 0) rmSync(scratch, { recursive: true, force: true });
  else console.error(`[fuzz] kept ${scratch} (report, service log) for a look`);
}
process.exit(exitCode);
