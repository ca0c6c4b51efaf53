// The side-by-side phase of `npm test`: the files in `bun test` processes of their own, a few at once, the
// longest first, never two heavy ones together, each process's output shown whole when it ends.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { addCounts, noTests, type TestRunOutcome } from './bun-test';

export interface PoolFile {
  path: string;
  /** Starts processes of its own: never beside another heavy file, nor in a process with other files. */
  heavy: boolean;
}

export interface PoolOptions {
  workers: number;
  /** Runs files one after another in one `bun test`; its output is kept, to be shown whole when it ends. */
  run: (files: string[]) => Promise<TestRunOutcome>;
  /** How long each file took when last measured (ms), as Bun's `--timings` files hold them. */
  timings: FileTimings;
}

/** A file with no timing yet is taken for a long one, so that it does not start last. */
const unmeasuredMs = 60_000;

/**
 * Short files share a process, up to about this long in all: loading the service's modules and warming
 * its code costs each process about a second of CPU, which a hundred files would pay a hundred times
 * (on the suite as it stands, 44 processes for the 137 files side by side, against 71 at half this).
 * Longer files have one each, so that they start as early as their length asks.
 */
const batchMs = 60_000;

/**
 * Runs the files `workers` processes at a time. A free worker takes the longest file it may (a heavy one
 * only when no other heavy one runs) and, when that is a short one, the next shorter ones up to `batchMs`:
 * so no long file starts last and runs on alone, and no worker idles while a file it may take waits.
 * Returns one outcome for the whole phase, its counts summed over the files.
 */
export async function runFilePool(name: string, files: PoolFile[], options: PoolOptions): Promise<TestRunOutcome> {
  const startedAt = performance.now();
  const expected = (file: PoolFile) => options.timings.expectedMs(file.path, unmeasuredMs);
  const pending = [...files].sort((a, b) => expected(b) - expected(a));
  const failed: string[] = [];
  let counts = noTests;
  let cpuSeconds = 0;
  let heavyRunning = false;
  let wake: (() => void) | undefined;
  let changed = new Promise<void>((resolve) => (wake = resolve));

  const nextBatch = (): PoolFile[] => {
    const first = pending.find((file) => !(file.heavy && heavyRunning));
    if (!first) return [];
    const batch = [first];
    let total = expected(first);
    if (!first.heavy) {
      for (const file of pending) {
        if (file === first || file.heavy || total + expected(file) > batchMs) continue;
        batch.push(file);
        total += expected(file);
      }
    }
    for (const file of batch) pending.splice(pending.indexOf(file), 1);
    return batch;
  };

  const worker = async () => {
    while (pending.length > 0) {
      const batch = nextBatch();
      if (batch.length === 0) {
        await changed;
        continue;
      }
      const heavy = batch.some((file) => file.heavy);
      heavyRunning ||= heavy;
      const paths = batch.map((file) => file.path);
      const outcome = await options.run(paths);
      if (heavy) heavyRunning = false;
      options.timings.recordShared(paths, outcome.seconds * 1000);
      counts = addCounts(counts, outcome.counts);
      cpuSeconds += outcome.cpuSeconds ?? 0;
      if (outcome.exitCode !== 0) failed.push(...paths);
      report(paths, outcome, pending.length);
      wake?.();
      changed = new Promise<void>((resolve) => (wake = resolve));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.workers) }, worker));
  if (failed.length > 0) console.error(`[test] failed in ${name} (or in a process with them):\n${failed.map((file) => `  ${file}`).join('\n')}`);
  return { name, exitCode: failed.length === 0 ? 0 : 1, counts, seconds: (performance.now() - startedAt) / 1000, cpuSeconds };
}

function report(files: string[], outcome: TestRunOutcome, left: number): void {
  process.stdout.write(outcome.output ?? '');
  const { pass, fail } = outcome.counts;
  const verdict = outcome.exitCode === 0 ? 'passed' : `FAILED (exit ${outcome.exitCode})`;
  const cpu = outcome.cpuSeconds === undefined ? '' : `, ${outcome.cpuSeconds.toFixed(1)} s of CPU`;
  console.log(`[test] ${files.join(' ')} ${verdict}: ${pass} pass, ${fail} fail in ${outcome.seconds.toFixed(1)} s${cpu} (${left} files to start)\n`);
}

/**
 * Per-file durations in the shape of Bun's `--timings` files (`{"version":1,"files":{path: ms}}`): read from
 * the last run's, else the committed ones; this run's measurements are written to the first.
 */
export class FileTimings {
  private readonly known = new Map<string, number>();
  private readonly measured = new Map<string, number>();

  constructor(
    private readonly writeTo: string,
    readFrom: string[],
  ) {
    for (const path of [...readFrom].reverse()) {
      for (const [file, ms] of Object.entries(readTimings(path))) this.known.set(file, ms);
    }
  }

  expectedMs(file: string, otherwise: number): number {
    return this.known.get(file) ?? otherwise;
  }

  /** Files that ran in one process share its time in the proportions they were expected to take. */
  recordShared(files: string[], ms: number): void {
    const expected = files.map((file) => this.expectedMs(file, unmeasuredMs));
    const sum = expected.reduce((a, b) => a + b, 0);
    files.forEach((file, index) => this.measured.set(file, Math.round((ms * expected[index]!) / sum)));
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
