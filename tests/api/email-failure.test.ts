import { describe, expect, it } from 'vitest';
import { emailVerificationCodes } from '../../server/db/schema';
import { registerUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// SMTP_URL points at a port where nothing listens: the real SMTP client fails to connect.
const server = useTestServer({ SMTP_URL: 'smtp://127.0.0.1:9/?connectionTimeout=2000' });

describe('when the mail server is down', () => {
  it('still creates the account and its session, and a resend says so clearly with 503', async () => {
    const client = server.client();
    const response = await registerUser(client, 'offline-mail@example.org');
    expect(response.status).toBe(201);
    expect((await client.get('/api/user')).status).toBe(200);
    // No code was stored for an email that never left, so resending is not blocked for a minute.
    expect(server.db.select().from(emailVerificationCodes).all()).toEqual([]);

    const resend = await client.post('/api/send-email-verification');
    expect(resend.status).toBe(503);
    expect(resend.json).toEqual({
      code: 'OTHER',
      message: 'We could not send the email just now. Please try again in a few minutes.',
    });
  });

  it('answers a reset request as usual, revealing nothing about the account', async () => {
    await registerUser(server.client(), 'offline-reset@example.org');
    const known = await server.client().post('/api/password-reset-email', {
      json: { email: 'offline-reset@example.org' },
    });
    const unknown = await server.client().post('/api/password-reset-email', { json: { email: 'nobody@example.org' } });
    expect(known.status).toBe(200);
    expect(known.json).toEqual(unknown.json);
  });
});
