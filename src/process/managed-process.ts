import type { Subprocess } from 'bun';
import { openSync, closeSync } from 'node:fs';

export interface ManagedProcessOptions {
  name: string;
  argv: string[];
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Output goes to this file (append); the services are noisy and their logs rarely matter. */
  logFile: string;
  /** Drop privileges to this user when running as root (Postgres refuses to run as root). */
  runAsUser?: string;
}

/** A child process with its output in a log file and a bounded, escalating stop. */
export class ManagedProcess {
  private constructor(
    readonly name: string,
    private readonly child: Subprocess,
    readonly logFile: string,
  ) {}

  static spawn(options: ManagedProcessOptions): ManagedProcess {
    const asUser = options.runAsUser && process.getuid?.() === 0 ? ['runuser', '-u', options.runAsUser, '--'] : [];
    const fd = openSync(options.logFile, 'a');
    try {
      const child = Bun.spawn([...asUser, ...options.argv], {
        cwd: options.cwd,
        env: { ...process.env, ...options.env },
        stdin: 'ignore',
        stdout: fd,
        stderr: fd,
      });
      return new ManagedProcess(options.name, child, options.logFile);
    } finally {
      closeSync(fd);
    }
  }

  get pid(): number {
    return this.child.pid;
  }

  get exited(): Promise<number> {
    return this.child.exited;
  }

  get hasExited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  /** A polite signal (SIGTERM unless told otherwise), then SIGKILL when the grace period runs out. */
  async stop(options: { graceMs?: number; signal?: NodeJS.Signals } = {}): Promise<void> {
    const { graceMs = 10_000, signal = 'SIGTERM' } = options;
    if (this.hasExited) return;
    this.child.kill(signal);
    const exitedInTime = await Promise.race([this.child.exited.then(() => true), Bun.sleep(graceMs).then(() => false)]);
    if (!exitedInTime) {
      this.child.kill('SIGKILL');
      await this.child.exited;
    }
  }

  async tailLog(lines = 20): Promise<string> {
    const text = await Bun.file(this.logFile)
      .text()
      .catch(() => '');
    return text.trim().split('\n').slice(-lines).join('\n');
  }
}

/** Polls `check` until it resolves, the process dies, or the deadline passes. */
export async function waitUntilReady(process: ManagedProcess, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (process.hasExited) {
      throw new Error(`${process.name} exited during start-up:\n${await process.tailLog()}`);
    }
    if (await check().catch(() => false)) return;
    await Bun.sleep(100);
  }
  await process.stop({ graceMs: 2_000 });
  throw new Error(`${process.name} was not ready within ${timeoutMs} ms:\n${await process.tailLog()}`);
}
