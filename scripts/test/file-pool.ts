// The side-by-side phase of `npm test`: each file in a `bun test` of its own, a few at once, the longest
// first, never two heavy ones together, each file's output shown whole when it ends.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { addCounts, noTests, type TestRunOutcome } from './bun-test';

export interface PoolFile {
  path: string;
  /** Starts processes of its own: never beside another heavy file. */
  heavy: boolean;
}

export interface PoolOptions {
  workers: number;
  /** Runs one file; its output is kept, to be shown whole when it ends. */
  run: (file: string) => Promise<TestRunOutcome>;
  /** How long each file took when last measured (ms), as Bun's `--timings` files hold them. */
  timings: FileTimings;
}

/** A file with no timing yet is taken for a long one, so that it does not start last. */
const unmeasuredMs = 60_000;

/**
 * Runs the files `workers` at a time. A free worker takes the longest file it may (a heavy one only when no
 * other heavy one runs), so that no long file starts last and runs on alone, and no worker idles while a
 * file it may take waits. Returns one outcome for the whole phase, its counts summed over the files.
 */
export async function runFilePool(name: string, files: PoolFile[], options: PoolOptions): Promise<TestRunOutcome> {
  const startedAt = performance.now();
  const pending = [...files].sort((a, b) => options.timings.expectedMs(b.path, unmeasuredMs) - options.timings.expectedMs(a.path, unmeasuredMs));
  const failed: string[] = [];
  let counts = noTests;
  let cpuSeconds = 0;
  let heavyRunning = false;
  let wake: (() => void) | undefined;
  let changed = new Promise<void>((resolve) => (wake = resolve));

  const worker = async () => {
    while (pending.length > 0) {
      const index = pending.findIndex((file) => !(file.heavy && heavyRunning));
      if (index === -1) {
        await changed;
        continue;
      }
      const [file] = pending.splice(index, 1) as [PoolFile];
      heavyRunning ||= file.heavy;
      const outcome = await options.run(file.path);
      if (file.heavy) heavyRunning = false;
      options.timings.record(file.path, outcome.seconds * 1000);
      counts = addCounts(counts, outcome.counts);
      cpuSeconds += outcome.cpuSeconds ?? 0;
      if (outcome.exitCode !== 0) failed.push(file.path);
      report(file.path, outcome, pending.length);
      wake?.();
      changed = new Promise<void>((resolve) => (wake = resolve));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.workers) }, worker));
  if (failed.length > 0) console.error(`[test] failed in the side-by-side phase:\n${failed.map((file) => `  ${file}`).join('\n')}`);
  return { name, exitCode: failed.length === 0 ? 0 : 1, counts, seconds: (performance.now() - startedAt) / 1000, cpuSeconds };
}

function report(file: string, outcome: TestRunOutcome, left: number): void {
  process.stdout.write(outcome.output ?? '');
  const { pass, fail } = outcome.counts;
  const verdict = outcome.exitCode === 0 ? 'passed' : `FAILED (exit ${outcome.exitCode})`;
  const cpu = outcome.cpuSeconds === undefined ? '' : `, ${outcome.cpuSeconds.toFixed(1)} s of CPU`;
  console.log(`[test] ${file} ${verdict}: ${pass} pass, ${fail} fail in ${outcome.seconds.toFixed(1)} s${cpu} (${left} to start)\n`);
}

/**
 * Per-file durations in the shape of Bun's `--timings` files (`{"version":1,"files":{path: ms}}`): read from
 * the last run's, else the committed ones; this run's measurements are written to the first.
 */
export class FileTimings {
  private readonly known = new Map<string, number>();
  private readonly measured = new Map<string, number>();

  constructor(private readonly writeTo: string, readFrom: string[]) {
    for (const path of [...readFrom].reverse()) {
      for (const [file, ms] of Object.entries(readTimings(path))) this.known.set(file, ms);
    }
  }

  expectedMs(file: string, otherwise: number): number {
    return this.known.get(file) ?? otherwise;
  }

  record(file: string, ms: number): void {
    this.measured.set(file, Math.round(ms));
  }

  /** What this run measured, over what was known. */
  save(): void {
    const files = Object.fromEntries([...new Map([...this.known, ...this.measured])].sort(([, a], [, b]) => b - a));
    mkdirSync(dirname(this.writeTo), { recursive: true });
    writeFileSync(this.writeTo, `${JSON.stringify({ version: 1, files }, null, 2)}\n`);
  }
}

function readTimings(path: string): Record<string, number> {
  if (!existsSync(path)) return {};
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as { files?: Record<string, number> };
  return parsed.files ?? {};
}
