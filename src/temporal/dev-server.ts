import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Connection } from '@temporalio/client';
import type { Logger } from '../logging/logger';
import { ManagedProcess, waitUntilReady } from '../process/managed-process';
import { isPortOpen } from '../process/ports';
import devServerSettings from '../../temporal/dev-server.json';

export interface DevServerOptions {
  cliPath: string;
  host: string;
  port: number;
  uiPort: number;
  namespace: string;
  /** SQLite file that keeps workflows across restarts; in memory when absent. */
  dbFile?: string;
  logFile: string;
  /** Remembers the child's pid so that a server orphaned by a killed parent is stopped on the next start. */
  pidFile?: string;
  logger: Logger;
}

const readyTimeoutMs = 60_000;

/**
 * Query jobs use priorities 1 to 10 (the server's default is 5 levels) and a fairness key per
 * workspace. One partition per task queue keeps the priority order strict on a single machine.
 */
const dynamicConfig = Object.entries(devServerSettings.dynamicConfig).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
const maxRestartDelayMs = 30_000;

/**
 * A supervised `temporal server start-dev`: a complete Temporal server with SQLite persistence and the
 * Web UI. Restarted with backoff if it dies; stopped with the service.
 */
export class TemporalDevServer {
  private process: ManagedProcess | undefined;
  private stopping = false;
  private supervision: Promise<void> | undefined;

  private constructor(private readonly options: DevServerOptions) {}

  static async start(options: DevServerOptions): Promise<TemporalDevServer> {
    const server = new TemporalDevServer(options);
    await server.stopOrphan();
    if (await isPortOpen(options.port, options.host)) {
      throw new Error(
        `port ${options.port} is already in use: set TEMPORAL_ADDRESS to use the Temporal server listening there, or TEMPORAL_PORT to start one elsewhere`,
      );
    }
    await server.launch();
    server.supervision = server.supervise();
    return server;
  }

  get address(): string {
    return `${this.options.host}:${this.options.port}`;
  }

  get uiUrl(): string {
    return `http://${this.options.host === '0.0.0.0' ? '127.0.0.1' : this.options.host}:${this.options.uiPort}`;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.process?.stop({ graceMs: 15_000 });
    await this.supervision;
    if (this.options.pidFile) rmSync(this.options.pidFile, { force: true });
  }

  private async launch(): Promise<void> {
    const { cliPath, host, port, uiPort, namespace, dbFile, logFile } = this.options;
    mkdirSync(dirname(logFile), { recursive: true });
    const argv = [cliPath, 'server', 'start-dev', '--ip', host, '--port', String(port), '--ui-port', String(uiPort), '--log-level', 'warn'];
    if (dbFile) {
      mkdirSync(dirname(dbFile), { recursive: true });
      argv.push('--db-filename', dbFile);
    }
    if (namespace !== 'default') argv.push('--namespace', namespace);
    argv.push(...dynamicConfig.flatMap((setting) => ['--dynamic-config-value', setting]));
    argv.push(...Object.entries(devServerSettings.searchAttributes).flatMap(([name, type]) => ['--search-attribute', `${name}=${type}`]));

    this.process = ManagedProcess.spawn({ name: 'temporal dev server', argv, logFile });
    if (this.options.pidFile) writeFileSync(this.options.pidFile, String(this.process.pid));
    await waitUntilReady(this.process, () => this.answers(), readyTimeoutMs);
  }

  private async answers(): Promise<boolean> {
    const connection = await Connection.connect({ address: this.address, connectTimeout: '1s' });
    try {
      await connection.workflowService.describeNamespace({ namespace: this.options.namespace });
      return true;
    } finally {
      await connection.close();
    }
  }

  private async supervise(): Promise<void> {
    let delayMs = 1_000;
    while (!this.stopping && this.process) {
      const exitCode = await this.process.exited;
      if (this.stopping) return;
      this.options.logger.warn('temporal dev server exited; restarting', { exit_code: exitCode, restart_in_ms: delayMs, log_file: this.options.logFile });
      await Bun.sleep(delayMs);
      delayMs = Math.min(delayMs * 2, maxRestartDelayMs);
      if (this.stopping) return;
      try {
        await this.launch();
        delayMs = 1_000;
        this.options.logger.info('temporal dev server is back', { address: this.address });
      } catch (error) {
        this.options.logger.error('temporal dev server failed to restart', { error });
      }
    }
  }

  private async stopOrphan(): Promise<void> {
    const { pidFile } = this.options;
    if (!pidFile || !existsSync(pidFile)) return;
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    const commandLine = readCommandLine(pid);
    if (commandLine?.includes('start-dev') && commandLine.includes(this.options.cliPath)) {
      this.options.logger.warn('stopping a temporal dev server left behind by an earlier run', { pid });
      process.kill(pid, 'SIGTERM');
      for (let waited = 0; waited < 15_000 && readCommandLine(pid) !== undefined; waited += 100) await Bun.sleep(100);
      if (readCommandLine(pid) !== undefined) process.kill(pid, 'SIGKILL');
    }
    rmSync(pidFile, { force: true });
  }
}

function readCommandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return undefined;
  }
}
