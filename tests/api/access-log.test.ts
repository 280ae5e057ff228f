import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentIntentSchema } from '../../shared/answers/donations';
import { freePort, ServerProcess } from '../fixtures/crash/server-process';
import { createFundraiser } from '../fixtures/fundraisers';
import { testCard } from '../fixtures/test-cards';
import { startSmtpSink } from '../fixtures/smtp-sink';
import { registerUser, TestClient } from '../fixtures/test-server';

// The access log of the real server, as its own process writing the log an operator reads (issue
// 22): every secret it hands out in a link, and every secret a link may carry in its query, is
// used in a request, and none of them is in the log afterwards. Mail goes over SMTP as in
// production (the outbox's console summary shows links on purpose, for a developer).

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-access-log-'));
const logFile = path.join(workDir, 'server.log');
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let server: ServerProcess;

beforeAll(async () => {
  sink = await startSmtpSink();
  server = new ServerProcess({
    dataDir: path.join(workDir, 'data'),
    port: await freePort(),
    logFile,
    env: { LOG_LEVEL: 'info', SMTP_URL: sink.url, MAIL_FROM: 'Soundcause <noreply@example.org>' },
  });
  await server.start();
}, 90_000);

afterAll(async () => {
  await server.stop();
  await sink.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

/** The first match of `pattern` in a message to `to`, waiting for the message (mail goes out after the answer). */
async function mailed(to: string, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = sink
      .messagesTo(to)
      .map((message) => pattern.exec(message)?.[1])
      .find(Boolean);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`nothing like ${pattern} was mailed to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The answer, once it is known to be a 200. */
async function answered<T extends { status: number; text: string }>(response: Promise<T>): Promise<T> {
  const answer = await response;
  expect(answer.status, answer.text.slice(0, 200)).toBe(200);
  return answer;
}

describe('the access log', () => {
  it('holds none of the tokens and secrets the requests carried', async () => {
    const artist = new TestClient(server.baseUrl);
    await registerUser(artist, 'artist@log.test');
    const code = await mailed('artist@log.test', /verification code is (\d{6})/);
    await answered(artist.post('/api/verify-email', { json: { verificationCode: code } }));
    const fundraiser = await createFundraiser(artist, { publish: true, tracks: 1 });

    // A donation: its intent's id and client secret, then the receipt's download link.
    const donor = new TestClient(server.baseUrl);
    const intent = paymentIntentSchema.parse(
      (
        await answered(
          donor.post('/api/transactions/create-payment-intent', {
            json: { name: 'Fan', email: 'fan@log.test', donationCents: 1000, tipCents: 0, projectId: fundraiser.id },
          }),
        )
      ).json,
    );
    await answered(donor.get(`/api/test-payments/intent?clientSecret=${encodeURIComponent(intent.clientSecret)}`));
    await answered(
      donor.post('/api/test-payments/confirm', {
        json: { clientSecret: intent.clientSecret, ...testCard() },
      }),
    );
    await answered(donor.get(`/api/transactions/query?paymentIntentId=${intent.paymentIntentId}`));
    const purchaseToken = await mailed('fan@log.test', /\/purchases\/([A-Za-z0-9_-]{43})/);
    await donor.get(`/purchases/${purchaseToken}`);
    await answered(donor.get(`/api/purchases/${purchaseToken}`));
    await answered(donor.get(`/api/purchases/${purchaseToken}/download`));
    // Stripe's return to the success page names the intent and its client secret.
    await donor.get(
      `/projects/${fundraiser.urlSlug}/success?payment_intent=${intent.paymentIntentId}` +
        `&payment_intent_client_secret=${intent.clientSecret}&redirect_status=succeeded`,
    );

    // A reset link.
    await answered(donor.post('/api/password-reset-email', { json: { email: 'artist@log.test' } }));
    const resetToken = await mailed('artist@log.test', /\/reset-password\/([A-Za-z0-9_-]{43})/);
    await answered(donor.get(`/api/token-user/${resetToken}`));
    await donor.get(`/reset-password/${resetToken}`);

    // Secrets in queries, in no token's shape: a stream grant and a disbursement's callback secret.
    const grant = randomBytes(16).toString('hex');
    const callbackSecret = randomBytes(16).toString('hex');
    await donor.get(`/api/tracks/${fundraiser.tracksList[0]!.id}/stream?grant=${grant}&v=1`);
    await donor.get(
      `/admin/disbursement-complete?action=markComplete&callbackSecret=${callbackSecret}&disbursementId=1`,
    );

    await server.stop();
    const log = fs.readFileSync(logFile, 'utf8');
    // The requests were logged, with their secrets taken out…
    expect(log).toContain('"path":"/api/purchases/[redacted]/download"');
    expect(log).toContain('"path":"/api/token-user/[redacted]"');
    expect(log).toContain(`"path":"/api/tracks/${fundraiser.tracksList[0]!.id}/stream?grant=[redacted]&v=1"`);
    // …and none of the secrets is anywhere in it.
    const { clientSecret, paymentIntentId } = intent;
    const secrets = { purchaseToken, resetToken, grant, callbackSecret, clientSecret, paymentIntentId };
    for (const [name, secret] of Object.entries(secrets)) {
      expect(log.includes(secret), `${name} is in the log`).toBe(false);
    }
  }, 90_000);
});
