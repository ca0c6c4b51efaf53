import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServiceProcess, type ServiceProcess } from '../support/service-process';
import { testEnv } from '../support/test-env';

const projectRoot = resolve(import.meta.dir, '..', '..');

/** The README's block fenced as ```sh quick-start, exactly as a reader copies it. */
function quickStartBlock(readme: string): string {
  const match = /^```sh quick-start\n([\s\S]*?)^```$/m.exec(readme);
  if (!match) throw new Error('README.md has no block fenced as ```sh quick-start');
  return match[1]!;
}

/** The `# → …` lines of the block: what its commands print, in order. */
function shownOutput(block: string): string[] {
  return block
    .split('\n')
    .filter((line) => line.startsWith('# → '))
    .map((line) => line.slice('# → '.length).trim());
}

/** Runs the block with bash as a second shell would, stopping at the first command that fails. */
async function runInShell(block: string, env: Record<string, string>): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const shell = Bun.spawn(['bash', '-e', '-o', 'pipefail', '-c', block], { cwd: projectRoot, env, stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(shell.stdout).text(), new Response(shell.stderr).text(), shell.exited]);
  return { exitCode, stdout, stderr };
}

describe('the README quick start', () => {
  const block = quickStartBlock(readFileSync(join(projectRoot, 'README.md'), 'utf8'));
  let dataDir: string;
  let service: ServiceProcess;

  beforeAll(async () => {
    // A fresh `npm start` (`serve`, embedded defaults, its own DATA_DIR), on a free port and on the
    // tests' Temporal rather than a dev server of its own.
    dataDir = mkdtempSync(join(tmpdir(), 'oxbow-quick-start-'));
    service = await startServiceProcess('serve', {
      DATA_DIR: dataDir,
      TEMPORAL_ADDRESS: testEnv.temporalAddress(),
      TEMPORAL_UI_PORT: new URL(testEnv.temporalUiUrl()).port,
      TEMPORAL_TASK_QUEUE: `quick-start-${Date.now().toString(36)}`,
    });
  }, 90_000);

  afterAll(async () => {
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('the block names its service in one variable with a default, and shows what its commands print', () => {
    expect(block).toMatch(/^OXBOW=\$\{OXBOW:-http:\/\/[^}]+\}/);
    expect(shownOutput(block).length).toBeGreaterThanOrEqual(4);
  });

  test('every command succeeds as written, prints what the block shows, and the chart it publishes opens', async () => {
    // The CLI's profile and token cache go where a reader's would, in a home of the test's own.
    const home = join(dataDir, 'home');
    const env: Record<string, string> = {
      PATH: process.env.PATH!,
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_CACHE_HOME: join(home, '.cache'),
      DATA_DIR: dataDir,
      OXBOW: service.baseUrl,
    };
    const run = await runInShell(block, env);
    expect({ exitCode: run.exitCode, stderr: run.stderr }).toMatchObject({ exitCode: 0 });

    let from = 0;
    for (const shown of shownOutput(block)) {
      const at = run.stdout.indexOf(shown, from);
      expect({ shown, foundAfterThePreviousOne: at >= 0, stdout: run.stdout }).toMatchObject({ foundAfterThePreviousOne: true });
      from = at + shown.length;
    }

    // The public link the block ends with opens without credentials, as the README says.
    const link = /The chart: (\S+)/.exec(run.stdout)?.[1];
    expect(link).toStartWith('http://localhost:');
    const page = await fetch(link!.replace('http://localhost:', 'http://127.0.0.1:'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toStartWith('text/html');
    expect(await page.text()).toContain('Revenue by customer');
  }, 60_000);
});
