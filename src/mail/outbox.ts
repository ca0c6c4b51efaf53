import type { SealedBox } from '../crypto/sealed-box';
import type { Queryable } from '../store/store';
import type { Clock } from '../util/clock';
import type { MailMessage } from './message';
import { findOutboxMail, insertOutboxMail, type OutboxRow } from './outbox-queries';

/**
 * The durable record of every message owed. Writing to it happens inside the caller's transaction, so
 * a signup and its verification mail commit (or fail) together; delivery happens afterwards.
 */
export class MailOutbox {
  constructor(
    private readonly sealedBox: SealedBox,
    private readonly clock: Clock,
  ) {}

  async enqueue(tx: Queryable, message: MailMessage, userId: string | null): Promise<string> {
    const id = Bun.randomUUIDv7();
    await tx.run(insertOutboxMail, {
      id,
      user_id: userId,
      to_address: message.to,
      subject: message.subject,
      body_ciphertext: this.sealedBox.seal(message.text, `mail:${id}`),
      now: this.clock.now().toISOString(),
    });
    return id;
  }

  async read(db: Queryable, id: string): Promise<{ row: OutboxRow; message: MailMessage } | undefined> {
    const row = await db.first(findOutboxMail, { id });
    if (!row) return undefined;
    return { row, message: { to: row.to_address, subject: row.subject, text: this.sealedBox.open(row.body_ciphertext, `mail:${id}`) } };
  }
}
