import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type EmailMessage, outboxMailer } from '../../server/infra/email/mailer';
import { createLogger } from '../../server/infra/logger';

// The outbox mailer (DATA_DIR/outbox): what the crash tests count receipts in, so a message must
// appear whole or not at all, never overwrite another, and a keyed one appear once (issue 14).

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function outbox() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-outbox-'));
  dirs.push(dir);
  return dir;
}

const message = (overrides: Partial<EmailMessage> = {}): EmailMessage => ({
  to: 'fan@example.org',
  subject: 'Hello',
  text: 'Hello there',
  html: '<p>Hello there</p>',
  summary: 'hello',
  ...overrides,
});

const files = (dir: string) => fs.readdirSync(dir).sort();

describe('outbox mailer', () => {
  it('keeps every message, even many to one address in the same millisecond', async () => {
    const dir = outbox();
    const mailer = outboxMailer(dir, 'Site <no-reply@site.test>', createLogger('silent'));
    await Promise.all(Array.from({ length: 20 }, (_, i) => mailer.send(message({ text: `message ${i}` }))));
    expect(files(dir).filter((name) => name.endsWith('.eml'))).toHaveLength(20);
    expect(files(dir).filter((name) => !name.endsWith('.eml'))).toEqual([]);
  });

  it('writes a keyed message once, with its key as the Message-ID', async () => {
    const dir = outbox();
    const mailer = outboxMailer(dir, 'Site <no-reply@site.test>', createLogger('silent'));
    await mailer.send(message({ key: 'receipt-7' }));
    await mailer.send(message({ key: 'receipt-7', text: 'a second attempt' }));
    await mailer.send(message({ key: 'receipt-17' }));
    const sent = files(dir);
    expect(sent).toHaveLength(2);
    const first = fs.readFileSync(
      path.join(
        dir,
        sent.find((name) => name.endsWith('-receipt-7.eml'))!,
      ),
      'utf8',
    );
    expect(first).toContain('Message-ID: <receipt-7@site.test>');
    expect(first).toContain('Hello there');
    await expect(mailer.send(message({ key: '../escape' }))).rejects.toThrow('not a message key');
  });

  it('drops files an earlier run left half-written', () => {
    const dir = outbox();
    fs.writeFileSync(path.join(dir, '2026-01-01T00-00-00-000Z-fan@example.org-receipt-1.eml.part'), 'From: half');
    fs.writeFileSync(path.join(dir, '2026-01-01T00-00-00-000Z-fan@example.org-1a2b3c4d.eml'), 'From: whole');
    outboxMailer(dir, 'Site <no-reply@site.test>', createLogger('silent'));
    expect(files(dir)).toEqual(['2026-01-01T00-00-00-000Z-fan@example.org-1a2b3c4d.eml']);
  });
});
