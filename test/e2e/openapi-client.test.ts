import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startTestApp, type TestApp } from '../support/test-app';
import { testEnv } from '../support/test-env';

const projectRoot = resolve(import.meta.dir, '..', '..');
const walkthroughDir = join(projectRoot, 'test', 'openapi-client');

/**
 * A client generated from the document by openapi-typescript with its default options (installed by
 * the set-up) carries a walkthrough of every feature through the type checker: optional fields may be
 * left out, every answer is typed, and the mistakes a client could make are refused.
 */
describe('a TypeScript client generated from the OpenAPI document', () => {
  let t: TestApp;
  let scratch: string;
  beforeAll(async () => {
    t = await startTestApp('local');
    scratch = mkdtempSync(join(tmpdir(), 'oxbow-openapi-client-'));
    writeFileSync(join(scratch, 'openapi.json'), await (await t.app.handle(new Request('http://localhost/openapi.json'))).text());
  });
  afterAll(async () => {
    await t.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  test('generates, and the walkthrough type-checks against it while every mistake is refused', () => {
    const cli = join(testEnv.toolsDir(), 'openapi-typescript', 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
    const generated = Bun.spawnSync([process.execPath, cli, 'openapi.json', '-o', 'oxbow.d.ts'], { cwd: scratch, stdout: 'pipe', stderr: 'pipe' });
    expect(generated.stderr.toString()).not.toContain('Error');
    expect(generated.exitCode).toBe(0);

    for (const file of ['typed-client.ts', 'walkthrough.ts', 'mistakes.ts']) cpSync(join(walkthroughDir, file), join(scratch, file));
    const compilerOptions = {
      target: 'ES2023',
      module: 'Preserve',
      moduleResolution: 'bundler',
      lib: ['ES2023', 'DOM'],
      strict: true,
      noUncheckedIndexedAccess: true,
      noEmit: true,
      types: [],
    };
    writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['walkthrough.ts', 'mistakes.ts'] }));
    const checked = Bun.spawnSync([join(projectRoot, 'node_modules', '.bin', 'tsc'), '-p', join(scratch, 'tsconfig.json')], {
      cwd: scratch,
      stdout: 'pipe',
      stderr: 'pipe',
    });
    expect(checked.stdout.toString() + checked.stderr.toString()).toBe('');
    expect(checked.exitCode).toBe(0);
  }, 120_000);
});
