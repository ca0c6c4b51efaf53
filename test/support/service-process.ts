import { join, resolve } from 'node:path';
import type { Subprocess } from 'bun';
import { freePort } from '../../src/process/ports';

const projectRoot = resolve(import.meta.dir, '..', '..');

export interface ServiceProcess {
  baseUrl: string;
  child: Subprocess<'ignore', 'pipe', 'pipe'>;
  output(): string;
  /** SIGTERM and wait; returns the exit code. */
  stop(): Promise<number>;
}

/** Runs `bun src/main.ts <mode>` as its own process, the way `npm start` does, on a free port. */
export async function startServiceProcess(
  mode: string,
  env: Record<string, string | undefined>,
  options: { waitForHealth?: boolean; startTimeoutMs?: number } = {},
): Promise<ServiceProcess> {
  const port = env.PORT ?? String(await freePort());
  const child = Bun.spawn([process.execPath, join(projectRoot, 'src', 'main.ts'), mode], {
    cwd: projectRoot,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', ...env, PORT: port },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let output = '';
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) output += new TextDecoder().decode(chunk);
  };
  void collect(child.stdout);
  void collect(child.stderr);

  const service: ServiceProcess = {
    baseUrl: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      return child.exited;
    },
  };
  if (options.waitForHealth ?? true) {
    const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
    while (!output.includes('"oxbow is up"')) {
      if (child.exitCode !== null || Date.now() > deadline) {
        // Nothing may outlive the caller's failure: a process left behind would keep polling and serving.
        child.kill('SIGKILL');
        throw new Error(`service did not come up:\n${output}`);
      }
      await Bun.sleep(100);
    }
  }
  return service;
}

/** Worker processes a test starts (`bun src/main.ts worker`), each killed with SIGKILL when the test ends. */
export class WorkerProcesses {
  private running: ServiceProcess[] = [];

  constructor(private readonly env: () => Record<string, string | undefined>) {}

  /** A new worker, with `env` over the common environment. */
  async start(env: Record<string, string> = {}): Promise<ServiceProcess> {
    const worker = await startServiceProcess('worker', { ...this.env(), ...env }, { waitForHealth: false });
    this.running.push(worker);
    return worker;
  }

  /** The worker started last of those still running. */
  get newest(): ServiceProcess | undefined {
    return this.running.at(-1);
  }

  /** kill -9: the worker gets no chance to finish or record anything. */
  async kill(worker: ServiceProcess): Promise<void> {
    worker.child.kill('SIGKILL');
    await worker.child.exited;
    this.running = this.running.filter((running) => running !== worker);
  }

  async killAll(): Promise<void> {
    await Promise.all(this.running.map((worker) => this.kill(worker)));
  }
}
