import type { Config } from '../config';
import { SealedBox } from '../crypto/sealed-box';
import { listRecentOutboxMail } from '../mail/outbox-queries';
import { openStore } from '../store/open-store';

/**
 * `bun src/main.ts mail-outbox`: prints the newest messages of the outbox. Without SMTP_URL that is
 * where verification and reset links wait, so a local setup can follow them.
 */
export async function printOutbox(config: Config, limit = 10): Promise<void> {
  const store = openStore(config.metadata);
  const sealedBox = new SealedBox(config.secrets.encryptionKey);
  try {
    const rows = await store.all(listRecentOutboxMail, { limit });
    if (rows.length === 0) console.log('The outbox is empty.');
    for (const row of rows.reverse()) {
      const state = row.sent_at ? `sent ${row.sent_at}` : config.mail.smtpUrl ? `pending (${row.attempts} attempts)` : 'kept (no SMTP_URL)';
      console.log(
        `--- ${row.created_at}  to ${row.to_address}  [${state}]\nSubject: ${row.subject}\n\n${sealedBox.open(row.body_ciphertext, `mail:${row.id}`)}`,
      );
    }
  } finally {
    await store.close();
  }
}
