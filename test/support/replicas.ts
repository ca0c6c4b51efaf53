import { expect } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SealedBox } from '../../src/crypto/sealed-box';
import { listRecentOutboxMail } from '../../src/mail/outbox-queries';
import { PostgresStore } from '../../src/store/postgres-store';
import { createDatabase } from './backends';
import { startServiceProcess, type ServiceProcess } from './service-process';
import { testEnv } from './test-env';

/** An HTTP answer, its body parsed when it is JSON. */
export interface Answer {
  status: number;
  headers: Headers;
  // Tests check shapes with expect(): see bodyOf.
  body: any;
}

/**
 * API replicas and workers as separate processes (`bun src/main.ts api|worker`), the way an operator
 * runs them: each started with the deployment's DATABASE_URL, LAKE_URL, TEMPORAL_ADDRESS and DATA_DIR
 * (its generated secrets shared through it) and nothing else; `extra` holds the tuning a case needs.
 */
export class Replicas {
  readonly apis: ServiceProcess[] = [];
  readonly workers: ServiceProcess[] = [];
  /** The deployment's metadata store, read by the tests the way an operator would (the outbox, plans). */
  readonly store: PostgresStore;

  private constructor(
    readonly env: Record<string, string>,
    readonly databaseUrl: string,
    /** How many of each the deployment runs: a case that kills one restores the count (see replenish). */
    private readonly counts: { apis: number; workers: number },
    private readonly cleanup: () => Promise<void>,
  ) {
    this.store = new PostgresStore(databaseUrl, { maxConnections: 2 });
  }

  static async start(counts: { apis: number; workers: number }, extra: Record<string, string> = {}): Promise<Replicas> {
    const database = await createDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'oxbow-replicas-'));
    const s3 = testEnv.s3();
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      LAKE_URL: `s3://${s3.bucket}/replicas-${Date.now().toString(36)}`,
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
      AWS_REGION: s3.region,
      AWS_ENDPOINT_URL_S3: s3.endpoint,
      TEMPORAL_ADDRESS: testEnv.temporalAddress(),
      OXBOW_TOOLS_DIR: testEnv.toolsDir(),
      // Workers of other suites share the Temporal server: this deployment's work stays on its own queues.
      TEMPORAL_TASK_QUEUE: `replicas-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
      ...extra,
    };
    const replicas = new Replicas(env, database.url, counts, async () => {
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });
    // One first, so that the migrations and the generated secrets exist before the others start.
    replicas.apis.push(await replicas.startProcess('api'));
    await Promise.all([
      ...Array.from({ length: counts.apis - 1 }, async () => replicas.apis.push(await replicas.startProcess('api'))),
      ...Array.from({ length: counts.workers }, async () => replicas.workers.push(await replicas.startProcess('worker'))),
    ]);
    return replicas;
  }

  /** A further replica of the deployment, started as the others were. */
  async add(mode: 'api' | 'worker'): Promise<ServiceProcess> {
    const started = await this.startProcess(mode);
    (mode === 'api' ? this.apis : this.workers).push(started);
    return started;
  }

  /**
   * Starts what a case killed, so that every case finds the deployment as it was started, whatever ran
   * before it (cases run in random order).
   */
  async replenish(): Promise<void> {
    await Promise.all([
      ...Array.from({ length: Math.max(0, this.counts.apis - this.apis.length) }, () => this.add('api')),
      ...Array.from({ length: Math.max(0, this.counts.workers - this.workers.length) }, () => this.add('worker')),
    ]);
  }

  /** Kills a process outright (SIGKILL) and forgets it. */
  async kill(process: ServiceProcess): Promise<void> {
    process.child.kill('SIGKILL');
    await process.child.exited;
    for (const list of [this.apis, this.workers]) {
      const index = list.indexOf(process);
      if (index >= 0) list.splice(index, 1);
    }
  }

  async stop(): Promise<void> {
    await Promise.all([...this.apis, ...this.workers].map((process) => process.stop()));
    await this.store.close();
    await this.cleanup();
  }

  /** A request to one replica, as a client behind a load balancer sends it. */
  /** `body`: sent as it is (an upload), with the content type given in `headers`. */
  async call(
    api: ServiceProcess,
    path: string,
    init: { method?: string; json?: unknown; body?: Uint8Array<ArrayBuffer>; token?: string; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { ...init.headers };
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    const body = init.json === undefined ? init.body : JSON.stringify(init.json);
    const response = await fetch(`${api.baseUrl}${path}`, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
    const text = await response.text();
    const json = response.headers.get('content-type')?.includes('json') ?? false;
    return { status: response.status, headers: response.headers, body: json && text ? JSON.parse(text) : text };
  }

  /** A verified account (signed up on one replica, verified and logged in on others) and its access token. */
  async user(label: string): Promise<{ email: string; token: string }> {
    const [first, second = first!] = this.apis;
    const email = `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.test`;
    const password = 'correct horse battery';
    expect((await this.call(first!, '/api/v1/auth/signup', { json: { email, password } })).status).toBe(201);
    const box = new SealedBox(Buffer.from(readFileSync(join(this.env.DATA_DIR!, 'secrets', 'encryption_key'), 'utf8').trim(), 'base64'));
    const mail = (await this.store.all(listRecentOutboxMail, { limit: 200 })).find((row) => row.to_address === email);
    const token = decodeURIComponent(/token=([^\s&]+)/.exec(mail ? box.open(mail.body_ciphertext, `mail:${mail.id}`) : '')?.[1] ?? '');
    expect((await this.call(second, '/api/v1/auth/verify-email', { json: { token } })).status).toBe(200);
    const login = await this.call(first!, '/api/v1/auth/login', { json: { email, password } });
    expect(login.status).toBe(200);
    return { email, token: login.body.access_token };
  }

  async workspace(api: ServiceProcess, token: string, name: string): Promise<string> {
    const created = await this.call(api, '/api/v1/workspaces', {
      token,
      json: { name, slug: `${name}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}` },
    });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  /** The processes whose log says they opened an instance of the workspace (on that lane). */
  openedOn(workspaceId: string, lane: 'interactive' | 'background' = 'interactive'): ServiceProcess[] {
    return [...this.apis, ...this.workers].filter((process) =>
      logLines(process, 'workspace engine opened').some((line) => line.workspace_id === workspaceId && line.lane === lane),
    );
  }

  /** The replica that owns the workspace: the one that opened its query instance. */
  ownerOf(workspaceId: string): ServiceProcess {
    const owners = this.openedOn(workspaceId).filter((process) => this.apis.includes(process));
    expect(owners.length).toBe(1);
    return owners[0]!;
  }

  /** Another API replica than the one given. */
  other(api: ServiceProcess): ServiceProcess {
    return this.apis.find((candidate) => candidate !== api)!;
  }

  /** The value of a metric series on one API replica (summed over the labels given). */
  async metric(api: ServiceProcess, name: string, labels: Record<string, string> = {}): Promise<number> {
    const text = await (await fetch(`${api.baseUrl}/metrics`)).text();
    let sum = 0;
    for (const line of text.split('\n')) {
      const match = new RegExp(`^${name}(?:\\{([^}]*)\\})? (\\S+)$`).exec(line);
      if (!match) continue;
      const found = Object.fromEntries(
        (match[1] ?? '')
          .split(',')
          .filter(Boolean)
          .map((pair) => pair.split('=').map((part) => part.replaceAll('"', '')) as [string, string]),
      );
      if (Object.entries(labels).every(([key, value]) => found[key] === value)) sum += Number(match[2]);
    }
    return sum;
  }

  /** A worker bundles the workflow code as it starts (webpack): on a loaded machine that takes a while. */
  private startProcess(mode: 'api' | 'worker'): Promise<ServiceProcess> {
    return startServiceProcess(mode, this.env, { startTimeoutMs: 180_000 });
  }
}

/** The JSON log lines of a process with the given message. */
export function logLines(process: ServiceProcess, msg: string): Record<string, unknown>[] {
  return process
    .output()
    .split('\n')
    .filter((line) => line.includes(`"msg":"${msg}"`))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
