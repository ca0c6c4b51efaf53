import type { TemporalClient } from '../temporal/client';
import { startWorkflowOnce } from '../temporal/start-workflow';
import { mailDeliveryWorkflow } from '../workflows/mail-delivery';
import type { MailDeliveryStarter } from '../mail/mail-dispatch';

export const mailDeliveryWorkflowId = (outboxId: string) => `mail-delivery-${outboxId}`;

/** One delivery workflow per outbox message; it retries until the SMTP server takes the message. */
export function mailDeliveryClient(temporal: TemporalClient): MailDeliveryStarter {
  return {
    startDelivery: async (outboxId) =>
      void (await startWorkflowOnce(temporal, mailDeliveryWorkflow, {
        workflowId: mailDeliveryWorkflowId(outboxId),
        args: [outboxId],
        memo: { outbox_id: outboxId },
        labels: { kind: 'mail', objectId: outboxId },
      })),
  };
}
