import nodemailer from 'nodemailer';
import type { MailMessage } from './message';

export interface MailTransport {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Real delivery over SMTP (smtp:// or smtps://, credentials in the URL). */
export function createSmtpTransport(smtpUrl: URL, from: string): MailTransport {
  const transport = nodemailer.createTransport(smtpUrl.href);
  return {
    async send(message) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
    close: () => transport.close(),
  };
}
