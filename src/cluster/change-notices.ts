import type { Logger } from '../logging/logger';
import type { PostgresSession } from './postgres-session';

/**
 * A change that processes other than the one that made it hold state about: engine instances,
 * attached live sources, cached table names, admission limits.
 */
export type ChangeNotice =
  /** Deleted (access ended) or purged: its instances close everywhere. */
  | { kind: 'workspace_deleted'; workspaceId: string }
  /** Its plan changed: limits taken from the plan (statements at once) follow. */
  | { kind: 'plan_changed'; workspaceId: string }
  /** A live connection was created, changed or removed: query instances attach its sources anew. */
  | { kind: 'live_connections_changed'; workspaceId: string }
  /** Tables were created, dropped or changed by a write: cached table names are read again. */
  | { kind: 'tables_changed'; workspaceId: string }
  /** Notices may have been missed (the listener reconnected): drop what could be stale. */
  | { kind: 'resync' };

export type NoticeHandler = (notice: ChangeNotice) => void;

/** Every process hears of a change at once; the publishing process applies it before publish resolves. */
export interface ChangeNotices {
  publish(notice: ChangeNotice): Promise<void>;
  subscribe(handler: NoticeHandler): void;
}

/** One process (the embedded store): a notice only has to reach this process's own holders. */
export class LocalNotices implements ChangeNotices {
  private readonly handlers: NoticeHandler[] = [];

  constructor(private readonly logger: Logger) {}

  publish(notice: ChangeNotice): Promise<void> {
    deliver(this.handlers, notice, this.logger);
    return Promise.resolve();
  }

  subscribe(handler: NoticeHandler): void {
    this.handlers.push(handler);
  }
}

const channel = 'oxbow_changes';

/**
 * Processes sharing Postgres: notices go through `NOTIFY`, which Postgres delivers to every listening
 * session at once (and only once the sending transaction, here a single statement, has committed).
 * The publisher applies a notice itself first, so its own next request sees the change; it ignores
 * its own notice when it comes back. When the listening connection is re-established, notices sent
 * meanwhile are lost, so every process drops what could have gone stale (`resync`).
 */
export class PostgresNotices implements ChangeNotices {
  private readonly handlers: NoticeHandler[] = [];
  private readonly origin = Bun.randomUUIDv7();
  private listening = false;

  constructor(
    private readonly session: PostgresSession,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    await this.session.listen(
      channel,
      (payload) => this.received(payload),
      () => {
        if (this.listening) deliver(this.handlers, { kind: 'resync' }, this.logger);
        this.listening = true;
      },
    );
  }

  async publish(notice: ChangeNotice): Promise<void> {
    deliver(this.handlers, notice, this.logger);
    try {
      await this.session.notify(channel, JSON.stringify({ origin: this.origin, notice }));
    } catch (error) {
      this.logger.error('could not announce a change to the other processes', { kind: notice.kind, error });
    }
  }

  subscribe(handler: NoticeHandler): void {
    this.handlers.push(handler);
  }

  private received(payload: string): void {
    let message: { origin?: string; notice?: ChangeNotice };
    try {
      message = JSON.parse(payload) as typeof message;
    } catch {
      return;
    }
    if (message.origin === this.origin || !message.notice) return;
    deliver(this.handlers, message.notice, this.logger);
  }
}

function deliver(handlers: readonly NoticeHandler[], notice: ChangeNotice, logger: Logger): void {
  for (const handler of handlers) {
    try {
      handler(notice);
    } catch (error) {
      logger.error('a change notice could not be applied', { kind: notice.kind, error });
    }
  }
}
