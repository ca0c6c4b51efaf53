import { randomBytes } from 'node:crypto';
import { AppError } from '../errors/app-error';
import type { ErrorCode } from '../errors/catalogue';
import type { InfrastructureEndpoints } from './infrastructure-endpoints';
import { SourceError, type SourceFailure } from './source-error';

/** What a connector's engine is told to send its HTTP through: the proxy, with the credentials of one source session. */
export interface EgressRoute {
  /** `127.0.0.1:<port>` of the proxy. */
  proxy: string;
  username: string;
  password: string;
  /** Why the proxy refused a connection of this route, if it did (the policy's own error): what a failure really was. */
  refusal(): Promise<Error | undefined>;
  /** The route's credentials stop working. */
  close(): void;
}

/** What the proxy's thread is built from: the policy's settings (it holds a policy of its own). */
export interface EgressSettings {
  reserved: InfrastructureEndpoints;
  allowPrivate: boolean;
}

type ProxyCommand = { kind: 'allow'; username: string; password: string } | { kind: 'forget'; username: string } | { kind: 'sync' };
export type ToProxy = ProxyCommand & { id: number };
export type FromProxy =
  | { kind: 'listening'; port: number }
  | { kind: 'done'; id: number }
  | { kind: 'refused'; username: string; message: string; code?: ErrorCode; hint?: string; failure?: SourceFailure };

/**
 * The egress proxy (egress-proxy-server.ts) on a worker thread of its own, started on first use: the
 * routes source sessions send their engines' HTTP through, and what it refused on each.
 */
export class EgressProxy {
  private worker: Promise<{ worker: Worker; port: number }> | undefined;
  private readonly refusals = new Map<string, Error>();
  private readonly waiting = new Map<number, () => void>();
  private nextId = 0;

  constructor(private readonly settings: EgressSettings) {}

  async route(): Promise<EgressRoute> {
    const { port } = await this.started();
    const username = randomBytes(12).toString('hex');
    const password = randomBytes(24).toString('hex');
    await this.send({ kind: 'allow', username, password });
    return {
      proxy: `127.0.0.1:${port}`,
      username,
      password,
      refusal: async () => {
        // What the proxy reported before it answered the engine has arrived once this round trip has.
        await this.send({ kind: 'sync' });
        return this.refusals.get(username);
      },
      close: () => {
        this.refusals.delete(username);
        void this.send({ kind: 'forget', username }).catch(() => undefined);
      },
    };
  }

  async stop(): Promise<void> {
    const started = await this.worker?.catch(() => undefined);
    this.worker = undefined;
    started?.worker.terminate();
  }

  private started(): Promise<{ worker: Worker; port: number }> {
    this.worker ??= new Promise((resolve, reject) => {
      const worker = new Worker(new URL('./egress-proxy-worker.ts', import.meta.url), { workerData: this.settings } as WorkerOptions);
      worker.unref();
      worker.addEventListener('error', (event) => reject(event.error ?? new Error(event.message)));
      worker.addEventListener('message', (event: MessageEvent<FromProxy>) => {
        const message = event.data;
        if (message.kind === 'listening') resolve({ worker, port: message.port });
        else if (message.kind === 'done') this.waiting.get(message.id)?.();
        else if (!this.refusals.has(message.username)) this.refusals.set(message.username, errorOf(message));
      });
    });
    return this.worker;
  }

  private async send(message: ProxyCommand): Promise<void> {
    const { worker } = await this.started();
    const id = this.nextId++;
    await new Promise<void>((resolve) => {
      this.waiting.set(id, () => {
        this.waiting.delete(id);
        resolve();
      });
      worker.postMessage({ ...message, id });
    });
  }
}

function errorOf(message: Extract<FromProxy, { kind: 'refused' }>): Error {
  if (message.code) return new AppError(message.code, message.message, { hint: message.hint });
  if (message.failure) return new SourceError(message.failure, message.message);
  return new SourceError('unreachable', message.message);
}
