import type { Logger } from '../logging/logger';

/** Starts the durable delivery of one committed outbox message (idempotent per message). */
export interface MailDeliveryStarter {
  startDelivery(outboxId: string): Promise<void>;
}

/**
 * Hands committed outbox messages to delivery. With SMTP each gets a delivery workflow that retries
 * until the server takes it; a workflow that could not be started is picked up by the outbox sweep.
 * Without SMTP the outbox row is where the message stays, and a log line says so.
 */
export class MailDispatch {
  constructor(
    private readonly delivery: MailDeliveryStarter | undefined,
    private readonly logger: Logger,
  ) {}

  async dispatch(outboxIds: string[]): Promise<void> {
    for (const outboxId of outboxIds) {
      if (!this.delivery) {
        this.logger.info('mail kept in the outbox (SMTP_URL is not set)', { outbox_id: outboxId });
        continue;
      }
      await this.delivery.startDelivery(outboxId).catch((error: unknown) => {
        this.logger.warn('mail delivery not started yet; the outbox sweep will start it', { outbox_id: outboxId, error });
      });
    }
  }
}
