import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManagedProcess, waitUntilReady } from '../../../src/process/managed-process';
import { freePort } from '../../../src/process/ports';

export interface PostgresCluster {
  /** Superuser URL of the cluster's `postgres` database; tests create their own databases. */
  url: string;
  /** The folder of its Unix socket, where local connections are trusted whatever `hostAuth` says. */
  socketDir: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * A throwaway Postgres cluster in a temp dir on a free port, tuned for tests (no fsync). TCP
 * connections are trusted unless `hostAuth` names the method they authenticate with.
 */
export async function startPostgresCluster(
  binDir: string,
  options: { hostAuth?: 'trust' | 'scram-sha-256' | 'md5' | 'password' } = {},
): Promise<PostgresCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'oxbow-pg-'));
  const dataDir = join(dir, 'data');
  const asUser = process.getuid?.() === 0 ? 'postgres' : undefined;
  if (asUser) chownToUser(dir, asUser);

  const initdb = ManagedProcess.spawn({
    name: 'initdb',
    argv: [
      join(binDir, 'initdb'),
      '-D',
      dataDir,
      '-U',
      'oxbow',
      '--auth-local=trust',
      `--auth-host=${options.hostAuth ?? 'trust'}`,
      '--no-sync',
      '-E',
      'UTF8',
      '--locale=C',
    ],
    logFile: join(dir, 'initdb.log'),
    runAsUser: asUser,
  });
  if ((await initdb.exited) !== 0) throw new Error(`initdb failed:\n${await initdb.tailLog()}`);

  const port = await freePort();
  const server = ManagedProcess.spawn({
    name: 'postgres',
    argv: [
      join(binDir, 'postgres'),
      '-D',
      dataDir,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=300',
      '-c',
      'shared_buffers=256MB',
      // Postgres sources that replicate logically: their slots decode the WAL.
      '-c',
      'wal_level=logical',
      '-c',
      'max_replication_slots=64',
      '-c',
      'max_wal_senders=16',
    ],
    logFile: join(dir, 'postgres.log'),
    runAsUser: asUser,
  });
  await waitUntilReady(server, async () => isReady(binDir, port), 30_000);

  return {
    url: `postgres://oxbow@127.0.0.1:${port}/postgres`,
    socketDir: dir,
    port,
    async stop() {
      // SIGINT is Postgres' "fast shutdown": it disconnects clients instead of waiting for them. It
      // goes to the postmaster itself: runuser, in between when running as root, does not pass it on.
      await stopPostmaster(dataDir);
      await server.stop({ signal: 'SIGTERM', graceMs: 5_000 });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function stopPostmaster(dataDir: string): Promise<void> {
  let pid: number;
  try {
    pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return; // Not running any more.
  }
  if (!Number.isInteger(pid) || pid <= 0 || !signal(pid, 'SIGINT')) return;
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (!signal(pid, 0)) return;
    await Bun.sleep(50);
  }
  signal(pid, 'SIGKILL');
}

/** Sends a signal (0 only checks that the process is alive); false when there is no such process. */
function signal(pid: number, name: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}

async function isReady(binDir: string, port: number): Promise<boolean> {
  const probe = Bun.spawn([join(binDir, 'pg_isready'), '-h', '127.0.0.1', '-p', String(port), '-U', 'oxbow'], { stdout: 'ignore', stderr: 'ignore' });
  return (await probe.exited) === 0;
}

function chownToUser(path: string, user: string): void {
  const id = (flag: string) => Number(Bun.spawnSync(['id', flag, user]).stdout.toString().trim());
  chownSync(path, id('-u'), id('-g'));
}
