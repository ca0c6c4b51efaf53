import type { Logger } from '../logging/logger';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { MailOutbox } from '../mail/outbox';
import type { MailTransport } from '../mail/smtp-transport';
import type { MailDeliveryStarter } from '../mail/mail-dispatch';
import { listStrandedOutboxMail, markOutboxMailSent, recordOutboxFailure } from '../mail/outbox-queries';

export interface MailActivityDeps {
  store: Store;
  outbox: MailOutbox;
  transport: MailTransport | undefined;
  delivery: MailDeliveryStarter;
  clock: Clock;
  logger: Logger;
}

const strandedAfterMs = 2 * 60_000;
const giveUpAfterMs = 3 * 24 * 3_600_000;

export function createMailActivities(deps: MailActivityDeps) {
  return {
    async deliverOutboxMail(outboxId: string): Promise<void> {
      const mail = await deps.outbox.read(deps.store, outboxId);
      if (!mail || mail.row.sent_at) return;
      if (!deps.transport) throw new Error('SMTP_URL is not set on this worker');
      try {
        await deps.transport.send(mail.message);
      } catch (error) {
        await deps.store.run(recordOutboxFailure, { id: outboxId, error: String(error).slice(0, 500) });
        throw error;
      }
      await deps.store.run(markOutboxMailSent, { id: outboxId, now: deps.clock.now().toISOString() });
      deps.logger.info('mail delivered', { outbox_id: outboxId, attempts: mail.row.attempts + 1 });
    },

    async startStrandedMailDeliveries(): Promise<number> {
      const now = deps.clock.now().getTime();
      const stranded = await deps.store.all(listStrandedOutboxMail, {
        created_before: new Date(now - strandedAfterMs).toISOString(),
        created_after: new Date(now - giveUpAfterMs).toISOString(),
        limit: 500,
      });
      for (const { id } of stranded) await deps.delivery.startDelivery(id);
      return stranded.length;
    },
  };
}

export type MailActivities = ReturnType<typeof createMailActivities>;
