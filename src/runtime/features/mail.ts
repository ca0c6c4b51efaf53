import { SealedBox } from '../../crypto/sealed-box';
import { createMailActivities } from '../../activities/mail-activities';
import { MailDispatch } from '../../mail/mail-dispatch';
import { MailOutbox } from '../../mail/outbox';
import { pruneSentMail } from '../../mail/outbox-queries';
import { createSmtpTransport } from '../../mail/smtp-transport';
import { mailDeliveryClient } from '../../workflow-clients/mail-delivery';
import { mailOutboxSweepWorkflow } from '../../workflows/mail-delivery';
import type { FeatureWiring } from '../feature';
import type { FeatureDeps } from './deps';

/** The outbox, its delivery workflows (with SMTP) and the sweep that starts any that could not start. */
export function mailFeature({ config, infra, logger, clock }: FeatureDeps) {
  const log = logger.child({ component: 'mail' });
  const outbox = new MailOutbox(new SealedBox(config.secrets.encryptionKey), clock);
  const delivery = mailDeliveryClient(infra.temporal);
  const smtp = config.mail.smtpUrl;
  const dispatch = new MailDispatch(smtp ? delivery : undefined, log);
  const wiring = {
    activities: createMailActivities({
      store: infra.store,
      outbox,
      delivery,
      clock,
      logger: log,
      transport: smtp ? createSmtpTransport(smtp, config.mail.from) : undefined,
    }),
    schedules: smtp ? [{ scheduleId: 'mail-outbox-sweep', workflow: mailOutboxSweepWorkflow, args: [], every: '5m', labels: { kind: 'mail' } }] : [],
    prune: [pruneSentMail],
  } satisfies FeatureWiring;
  return { outbox, dispatch, wiring };
}
