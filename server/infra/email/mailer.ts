import { randomBytes } from 'node:crypto';
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
  /**
   * Names a message that may be sent again after a send whose outcome was lost (a crash after the
   * mail went, before it was recorded): letters, digits and dashes, e.g. `receipt-42`. The outbox
   * writes a message of a given key once; over SMTP it becomes the Message-ID, so the copies are
   * one message to the receiving side.
   */
  key?: string;
};

export interface Mailer {
  send(message: EmailMessage): Promise<void>;
}

const KEY = /^[a-z0-9-]{1,100}$/i;

function checkKey(key: string | undefined) {
  if (key !== undefined && !KEY.test(key)) throw new Error(`not a message key: ${key}`);
}

/** The Message-ID of a keyed message: the key at the sender's domain. */
function messageIdOf(key: string, from: string) {
  const domain = /@([^\s>]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return `<${key}@${domain}>`;
}

/** The message as nodemailer takes it; a keyed one always has the same Message-ID. */
function mailOf(from: string, { to, subject, text, html, key }: Omit<EmailMessage, 'summary'>) {
  return { from, to, subject, text, html, ...(key ? { messageId: messageIdOf(key, from) } : {}) };
}

/** Real delivery over SMTP (SMTP_URL, e.g. smtps://user:pass@smtp.example.org:465). */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send({ to, subject, text, html, key }) {
      checkKey(key);
      await transport.sendMail(mailOf(from, { to, subject, text, html, key }));
    },
  };
}

/** Files being written to the outbox: renamed to their `.eml` name once whole. */
const PARTIAL = '.part';

/**
 * The local default: each message becomes a real RFC 822 `.eml` file in DATA_DIR/outbox (open it
 * in any mail client), plus a one-line summary on the console. A file appears whole or not at all
 * (written aside, then renamed), and a keyed message is written once (its key ends the name).
 */
export function outboxMailer(outboxDir: string, from: string, logger: Logger): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  // Created up front so a developer finds the folder before the first email arrives. Files half
  // written when an earlier run died are no messages.
  fsSync.mkdirSync(outboxDir, { recursive: true });
  for (const name of fsSync.readdirSync(outboxDir)) {
    if (name.endsWith(PARTIAL)) fsSync.rmSync(path.join(outboxDir, name), { force: true });
  }
  const written = async (key: string) =>
    (await fs.readdir(outboxDir).catch(() => [] as string[])).some((name) => name.endsWith(`-${key}.eml`));
  return {
    async send({ to, subject, text, html, summary, key }) {
      checkKey(key);
      if (key && (await written(key))) {
        logger.info({ to, subject, key }, `email to ${to} is already in the outbox`);
        return;
      }
      const info = await transport.sendMail(mailOf(from, { to, subject, text, html, key }));
      await fs.mkdir(outboxDir, { recursive: true });
      const safeTo = to.replace(/[^a-z0-9@._-]/gi, '_');
      // The time first, so the files list in the order sent; then a key or random part, so two
      // messages to one address in the same millisecond do not share a name.
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${safeTo}-${key ?? randomBytes(4).toString('hex')}.eml`;
      const file = path.join(outboxDir, name);
      await fs.writeFile(`${file}${PARTIAL}`, info.message as Buffer);
      await fs.rename(`${file}${PARTIAL}`, file);
      logger.info({ to, subject, file }, `email to ${to}: ${summary}`);
    },
  };
}
