#!/usr/bin/env node
// The only step that runs on plain Node: it installs the pinned Bun into the tools folder,
// then hands over to the TypeScript setup (scripts/setup) and to the requested command.
// Usage: node scripts/bootstrap.mjs start | test [bun test args…] | bench [names…] | fuzz [options…] | cluster [options…] | exec <tool> [args…]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const toolsDir = join(root, '.tools');
const binDir = join(toolsDir, 'bin');
const { bun: bunVersion } = JSON.parse(readFileSync(join(root, 'toolchain.json'), 'utf8'));

function fail(what, retry) {
  console.error(`\n[setup] ${what}\n[setup] To retry: ${retry}\n`);
  process.exit(1);
}

function installedBunVersion(bunPath) {
  if (!existsSync(bunPath)) return undefined;
  const probe = spawnSync(bunPath, ['--version'], { encoding: 'utf8' });
  return probe.status === 0 ? probe.stdout.trim() : undefined;
}

function ensureBun() {
  const bunPath = join(binDir, 'bun');
  if (installedBunVersion(bunPath) === bunVersion) return bunPath;

  console.log(`[setup] installing Bun ${bunVersion} from the npm registry…`);
  const prefix = join(toolsDir, 'bun');
  rmSync(prefix, { recursive: true, force: true });
  mkdirSync(prefix, { recursive: true });
  const npm = spawnSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', `bun@${bunVersion}`], { stdio: 'inherit' });
  if (npm.status !== 0) fail(`npm could not install bun@${bunVersion}.`, 'check access to the npm registry, then run the same npm command again');

  // The package's postinstall links the platform binary into bin/; fall back to the platform package itself.
  const candidates = [
    join(prefix, 'node_modules', 'bun', 'bin', 'bun.exe'),
    join(prefix, 'node_modules', '@oven', `bun-linux-${process.arch === 'arm64' ? 'aarch64' : 'x64'}`, 'bin', 'bun'),
  ];
  const binary = candidates.find((candidate) => installedBunVersion(candidate) === bunVersion);
  if (!binary) fail(`bun@${bunVersion} was installed but no working binary was found under ${prefix}.`, `rm -rf ${prefix} && npm start`);

  mkdirSync(binDir, { recursive: true });
  rmSync(bunPath, { force: true });
  symlinkSync(binary, bunPath);
  return bunPath;
}

function run(command, args, env) {
  const child = spawn(command, args, { stdio: 'inherit', cwd: root, env });
  // The terminal delivers Ctrl-C to the whole process group; the child shuts down on its own,
  // so this process only waits for it and forwards a plain SIGTERM.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (signal !== 'SIGINT') child.kill('SIGTERM');
    });
  }
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const [target = 'start', ...rest] = process.argv.slice(2);
const bun = ensureBun();
const localBins = `${binDir}:${join(root, 'node_modules', '.bin')}`;
const env = { ...process.env, PATH: `${localBins}:${process.env.PATH ?? ''}`, OXBOW_TOOLS_DIR: toolsDir };
const profile = target === 'test' || target === 'bench' || target === 'cluster' ? 'test' : target === 'fuzz' ? 'fuzz' : 'start';
const setup = spawnSync(bun, [join(root, 'scripts', 'setup', 'index.ts'), profile], { stdio: 'inherit', cwd: root, env });
if (setup.status !== 0) process.exit(setup.status ?? 1);

switch (target) {
  case 'start':
    run(bun, [join(root, 'src', 'main.ts'), 'serve', ...rest], env);
    break;
  case 'test':
    run(bun, [join(root, 'scripts', 'test', 'run.ts'), ...rest], env);
    break;
  case 'bench':
    run(bun, [join(root, 'scripts', 'bench', 'run.ts'), ...rest], env);
    break;
  case 'fuzz':
    run(bun, [join(root, 'scripts', 'fuzz', 'run.ts'), ...rest], env);
    break;
  case 'cluster':
    run(bun, [join(root, 'scripts', 'cluster', 'run.ts'), ...rest], env);
    break;
  case 'exec':
    if (!rest[0]) fail('exec needs a command.', 'node scripts/bootstrap.mjs exec <command> [args…]');
    run(rest[0], rest.slice(1), env);
    break;
  default:
    fail(`unknown target "${target}".`, 'use start, test, bench, fuzz, cluster or exec');
}
