// One `bun test` run of `npm test`: its output passed through as it comes (or kept, to be shown whole when it
// ends), its closing counts read.

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
  /** CPU time of the `bun test` process (user and system), where the system reports it. */
  cpuSeconds?: number;
  /** What it printed, when asked to keep it rather than pass it through. */
  output?: string;
}

export const noTests: TestCounts = { pass: 0, fail: 0, skip: 0, todo: 0, files: 0 };

export interface BunTestOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** Keep the output (in `outcome.output`) instead of passing it through: for runs side by side. */
  keepOutput?: boolean;
}

/**
 * Runs `bun test` with `args` and `env`, and reads its closing lines (` 12 pass`, ` 0 fail`, `Ran 12 tests
 * across 3 files.`). A run that ends without them (a crash, a kill) counts as failed with no tests.
 */
export async function runBunTest(name: string, args: string[], options: BunTestOptions): Promise<TestRunOutcome> {
  const startedAt = performance.now();
  const child = Bun.spawn([process.execPath, 'test', ...args], { cwd: options.cwd, env: options.env, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
  stopWithThisProcess(child);
  const kept: string[] = [];
  const out = (stream: NodeJS.WriteStream) => (options.keepOutput ? (text: string) => void kept.push(text) : (text: string) => void stream.write(text));
  const [stdoutTail, stderrTail, exitCode] = await Promise.all([
    passThrough(child.stdout, out(process.stdout)),
    passThrough(child.stderr, out(process.stderr)),
    child.exited,
  ]);
  const counts = closingCounts(`${stdoutTail}\n${stderrTail}`);
  const cpu = child.resourceUsage()?.cpuTime;
  const outcome: TestRunOutcome = {
    name,
    exitCode: counts ? exitCode : exitCode || 1,
    counts: counts ?? noTests,
    seconds: (performance.now() - startedAt) / 1000,
    cpuSeconds: cpu && Number(cpu.user + cpu.system) / 1e6,
  };
  return options.keepOutput ? { ...outcome, output: kept.join('') } : outcome;
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

/** Hands a stream's text to `write` as it comes and returns its last few kilobytes (where the counts are). */
async function passThrough(stream: ReadableStream<Uint8Array>, write: (text: string) => void): Promise<string> {
  const decoder = new TextDecoder();
  let tail = '';
  for await (const chunk of stream) {
    const text = decoder.decode(chunk, { stream: true });
    write(text);
    tail = (tail + text).slice(-8_192);
  }
  return tail;
}

function closingCounts(text: string): TestCounts | undefined {
  const ran = /Ran (\d+) tests? across (\d+) files?\./.exec(text);
  if (!ran) return undefined;
  const count = (word: string) => Number(new RegExp(`^\\s*(\\d+) ${word}$`, 'm').exec(text)?.[1] ?? 0);
  return { pass: count('pass'), fail: count('fail'), skip: count('skip'), todo: count('todo'), files: Number(ran[2]) };
}
