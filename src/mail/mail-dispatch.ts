import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Logger } from '../logging/logger';
import type { TemporalClient } from '../temporal/client';
import type { mailDeliveryWorkflow } from '../workflows/mail-delivery';

export const mailDeliveryWorkflowId = (outboxId: string) => `mail-delivery-${outboxId}`;

/**
 * Hands committed outbox messages to delivery. With SMTP each gets a delivery workflow that retries
 * until the server takes it; a workflow that could not be started is picked up by the outbox sweep.
 * Without SMTP the outbox row is where the message stays, and a log line says so.
 */
export class MailDispatch {
  constructor(
    private readonly temporal: TemporalClient,
    private readonly smtpConfigured: boolean,
    private readonly logger: Logger,
  ) {}

  async dispatch(outboxIds: string[]): Promise<void> {
    for (const outboxId of outboxIds) {
      if (!this.smtpConfigured) {
        this.logger.info('mail kept in the outbox (SMTP_URL is not set)', { outbox_id: outboxId });
        continue;
      }
      await this.startDelivery(outboxId).catch((error) => {
        this.logger.warn('mail delivery not started yet; the outbox sweep will start it', { outbox_id: outboxId, error });
      });
    }
  }

  async startDelivery(outboxId: string): Promise<void> {
    try {
      await this.temporal.call(() =>
        this.temporal.client.workflow.start<typeof mailDeliveryWorkflow>('mailDeliveryWorkflow', {
          workflowId: mailDeliveryWorkflowId(outboxId),
          taskQueue: this.temporal.taskQueue,
          args: [outboxId],
        }),
      );
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  }
}
