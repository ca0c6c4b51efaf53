// Installs the pinned toolchain into .tools, idempotently. Run by scripts/bootstrap.mjs.
//   start: what `npm start` needs (dependencies, Temporal CLI, DuckDB extensions, the oxbow command line, openapi-typescript
//          and the web console built with the API types it generates)
//   test:  the same, plus the servers the tests run against (MinIO, PostgreSQL, stripe-mock), the browser tests' Chromium
//          and promtool (checks the alert rules)
//   fuzz:  what `npm start` needs, plus the API fuzzer (schemathesis)
import { SetupError } from './shell';
import { readToolchain, toolPaths, projectRoot } from './toolchain';
import { installDependencies } from './steps/dependencies';
import { installTemporalCli } from './steps/temporal-cli';
import { installDuckdbExtensions } from './steps/duckdb-extensions';
import { installMinio } from './steps/minio';
import { installPostgres } from './steps/postgres';
import { installStripeMock } from './steps/stripe-mock';
import { installSchemathesis } from './steps/schemathesis';
import { installChromium } from './steps/chromium';
import { buildWebConsole } from './steps/web-console';
import { buildCli } from './steps/cli';
import { installOpenapiTypescript } from './steps/openapi-typescript';
import { installPromtool } from './steps/promtool';

const profiles = ['start', 'test', 'fuzz'] as const;
const profile = profiles.find((name) => name === process.argv[2]) ?? 'start';
const startedAt = performance.now();

try {
  const toolchain = await readToolchain();
  const paths = toolPaths(`${projectRoot}/.tools`);
  await installDependencies(toolchain);
  installTemporalCli(toolchain, paths);
  installDuckdbExtensions(toolchain, paths);
  buildCli(paths);
  installOpenapiTypescript(process.execPath, paths);
  buildWebConsole(paths);
  if (profile === 'test') {
    installMinio(toolchain, paths);
    installPostgres(toolchain);
    installChromium(toolchain);
    installStripeMock(toolchain, paths);
    installPromtool(toolchain, paths);
  }
  if (profile === 'fuzz') installSchemathesis(toolchain, paths);
  console.log(`[setup] toolchain ready (${profile}) in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
} catch (error) {
  if (!(error instanceof SetupError)) throw error;
  console.error(`\n[setup] ${error.message}\n[setup] To retry: ${error.retry}\n`);
  process.exit(1);
}
