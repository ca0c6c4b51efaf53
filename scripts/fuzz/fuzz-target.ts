import { mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../setup/toolchain';
import { freePort } from '../../src/process/ports';

/** The service under test: its address and the environment its own commands (mail-outbox) need. */
export interface FuzzTarget {
  baseUrl: string;
  /** The service's environment: `bun src/main.ts mail-outbox` with it reads the service's outbox. */
  env: Record<string, string | undefined>;
  /** Whether the fuzz run owns the service (and its metadata store) and stops it at the end. */
  owned: boolean;
  stop(): Promise<void>;
}

// Variables that would point the service away from its embedded defaults.
const externalSettings = ['DATABASE_URL', 'LAKE_URL', 'TEMPORAL_ADDRESS', 'SMTP_URL', 'AWS_ENDPOINT_URL_S3', 'PORT', 'HOST', 'PUBLIC_BASE_URL', 'FRONTEND_URL'];

/** Starts `bun src/main.ts serve` on the embedded defaults in a fresh DATA_DIR, on free ports, and waits until it answers. */
export async function startOwnService(scratchDir: string): Promise<FuzzTarget> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: Record<string, string | undefined> = { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'info' };
  for (const name of externalSettings) delete env[name];
  Object.assign(env, {
    DATA_DIR: join(scratchDir, 'data'),
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_BASE_URL: baseUrl,
    TEMPORAL_PORT: String(await freePort()),
    TEMPORAL_UI_PORT: String(await freePort()),
  });
  mkdirSync(env.DATA_DIR!, { recursive: true });
  const log = openSync(join(scratchDir, 'service.log'), 'a');
  const child = Bun.spawn([process.execPath, join(projectRoot, 'src', 'main.ts'), 'serve'], {
    cwd: projectRoot,
    env,
    stdin: 'ignore',
    stdout: log,
    stderr: log,
  });
  const target: FuzzTarget = {
    baseUrl,
    env,
    owned: true,
    async stop() {
      child.kill('SIGTERM');
      await child.exited;
    },
  };
  await waitForHealth(baseUrl, () => child.exitCode !== null, join(scratchDir, 'service.log'));
  return target;
}

/** A service that runs already; `dataDir` is its DATA_DIR (for its outbox) when it is not this machine's default. */
export function externalService(baseUrl: string, dataDir: string | undefined): FuzzTarget {
  return { baseUrl: baseUrl.replace(/\/+$/, ''), env: { ...process.env, ...(dataDir ? { DATA_DIR: dataDir } : {}) }, owned: false, stop: async () => {} };
}

async function waitForHealth(baseUrl: string, exited: () => boolean, logPath: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const status = await fetch(`${baseUrl}/api/v1/health`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    if (exited() || Date.now() > deadline) throw new Error(`the service did not come up (see ${logPath})`);
    await Bun.sleep(250);
  }
}
