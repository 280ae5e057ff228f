import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '../logger';

export type EmailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** One line for the console in outbox mode, so a developer sees codes and links at a glance. */
  summary: string;
};

export interface Mailer {
  send(message: EmailMessage): Promise<void>;
}

/** Real delivery over SMTP (SMTP_URL, e.g. smtps://user:pass@smtp.example.org:465). */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send({ to, subject, text, html }) {
      await transport.sendMail({ from, to, subject, text, html });
    },
  };
}

/**
 * The local default: each message becomes a real RFC 822 `.eml` file in DATA_DIR/outbox (open it
 * in any mail client), plus a one-line summary on the console.
 */
export function outboxMailer(outboxDir: string, from: string, logger: Logger): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  // Created up front so a developer finds the folder before the first email arrives.
  fsSync.mkdirSync(outboxDir, { recursive: true });
  return {
    async send({ to, subject, text, html, summary }) {
      const info = await transport.sendMail({ from, to, subject, text, html });
      await fs.mkdir(outboxDir, { recursive: true });
      const safeTo = to.replace(/[^a-z0-9@._-]/gi, '_');
      const file = path.join(outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${safeTo}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      logger.info({ to, subject, file }, `email to ${to}: ${summary}`);
    },
  };
}
