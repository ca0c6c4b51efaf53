// One `bun test` run of `npm test`: its output passed through as it comes, its closing counts kept.

export interface TestCounts {
  pass: number;
  fail: number;
  skip: number;
  todo: number;
  files: number;
}

export interface TestRunOutcome {
  name: string;
  exitCode: number;
  counts: TestCounts;
  seconds: number;
}

export const noTests: TestCounts = { pass: 0, fail: 0, skip: 0, todo: 0, files: 0 };

export interface BunTestOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** Put before each line of its output, to tell it from another run's beside it. */
  linePrefix?: string;
}

/**
 * Runs `bun test` with `args` and `env`, and reads its closing lines (` 12 pass`, ` 0 fail`, `Ran 12 tests
 * across 3 files.`). A run that ends without them (a crash, a kill) counts as failed with no tests.
 */
export async function runBunTest(name: string, args: string[], options: BunTestOptions): Promise<TestRunOutcome> {
  const startedAt = performance.now();
  const child = Bun.spawn([process.execPath, 'test', ...args], { cwd: options.cwd, env: options.env, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
  stopWithThisProcess(child);
  const prefix = options.linePrefix ?? '';
  const [stdoutTail, stderrTail, exitCode] = await Promise.all([passThrough(child.stdout, process.stdout, prefix), passThrough(child.stderr, process.stderr, prefix), child.exited]);
  const counts = closingCounts(`${stdoutTail}\n${stderrTail}`);
  return { name, exitCode: counts ? exitCode : exitCode || 1, counts: counts ?? noTests, seconds: (performance.now() - startedAt) / 1000 };
}

export function addCounts(a: TestCounts, b: TestCounts): TestCounts {
  return { pass: a.pass + b.pass, fail: a.fail + b.fail, skip: a.skip + b.skip, todo: a.todo + b.todo, files: a.files + b.files };
}

const running = new Set<{ kill(signal?: number | NodeJS.Signals): void }>();

/** Test processes still running when `npm test` is interrupted are stopped with it. */
export function stopRunningTests(): void {
  for (const child of running) child.kill('SIGTERM');
}

function stopWithThisProcess(child: ReturnType<typeof Bun.spawn>): void {
  running.add(child);
  void child.exited.then(() => running.delete(child));
}

/**
 * Copies a stream to `out` a whole line at a time (so that runs side by side never cut into each other's
 * lines), each after `prefix`, and returns its last few kilobytes as written by the run (where the counts are).
 */
async function passThrough(stream: ReadableStream<Uint8Array>, out: NodeJS.WriteStream, prefix: string): Promise<string> {
  const decoder = new TextDecoder();
  let tail = '';
  let partial = '';
  const write = (lines: string) => out.write(`${prefix ? lines.replace(/^/gm, prefix) : lines}\n`);
  for await (const chunk of stream) {
    const text = decoder.decode(chunk, { stream: true });
    tail = (tail + text).slice(-8_192);
    const buffered = partial + text;
    const lastBreak = buffered.lastIndexOf('\n');
    partial = buffered.slice(lastBreak + 1);
    if (lastBreak !== -1) write(buffered.slice(0, lastBreak));
  }
  if (partial) write(partial);
  return tail;
}

function closingCounts(text: string): TestCounts | undefined {
  const ran = /Ran (\d+) tests? across (\d+) files?\./.exec(text);
  if (!ran) return undefined;
  const count = (word: string) => Number(new RegExp(`^\\s*(\\d+) ${word}$`, 'm').exec(text)?.[1] ?? 0);
  return { pass: count('pass'), fail: count('fail'), skip: count('skip'), todo: count('todo'), files: Number(ran[2]) };
}
