import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { emailVerificationCodes, passwordResetTokens, sessions, users } from '../../server/db/schema';
import { ensureAdmin } from '../../server/features/accounts/service';
import { SESSION_TTL_MS } from '../../server/infra/security/session-store';
import { rawRequest, registerUser, startTestServer, strongPassword } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// Races, spoofing and limits: what an attacker tries first.

const server = useTestServer();

let counter = 0;
const uniqueEmail = (label: string) => `${label}-${++counter}@example.org`;
const userIdOf = (email: string) => server.db.select().from(users).where(eq(users.email, email)).get()!.id;

describe('races', () => {
  it('lets only one of several parallel resets use a link', async () => {
    const email = uniqueEmail('race-reset');
    await registerUser(server.client(), email);
    await server.client().post('/api/password-reset-email', { json: { email } });
    const token = await server.outbox.latestResetToken(email);
    const passwords = ['Race!one1', 'Race!two2', 'Race!three3', 'Race!four4'];
    const answers = await Promise.all(
      passwords.map((password) =>
        server.client().post('/api/password-reset', { json: { password, resetToken: token } }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 404, 404, 404]);
    const winner = passwords[answers.findIndex((answer) => answer.status === 200)]!;
    const logins = await Promise.all(
      passwords.map((password) => server.client().post('/api/login', { form: { email, password } })),
    );
    expect(logins.map((login, i) => [passwords[i], login.status])).toEqual(
      passwords.map((password) => [password, password === winner ? 200 : 401]),
    );
  });

  it('limits a burst of parallel wrong logins like a sequence of them', async () => {
    const email = uniqueEmail('race-login');
    await registerUser(server.client(), email);
    const ip = '198.51.100.30';
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        server.client(ip).post('/api/login', { form: { email, password: 'Wrong!pass1' } }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
  });
});

describe('client address behind a proxy', () => {
  it('counts the address the proxy added, not the one the client wrote', async () => {
    const realIp = '198.51.100.9';
    for (let n = 0; n < 10; n++) {
      await server.client().post('/api/login', {
        form: { email: uniqueEmail('spoof'), password: 'Wrong!pass1' },
        headers: { 'x-forwarded-for': `203.0.113.${n}, ${realIp}` },
      });
    }
    const email = uniqueEmail('spoof-target');
    await registerUser(server.client(), email);
    const blocked = await server.client().post('/api/login', {
      form: { email, password: strongPassword },
      headers: { 'x-forwarded-for': `203.0.113.200, ${realIp}` },
    });
    expect(blocked.status).toBe(429);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
    const direct = await startTestServer({ TRUST_PROXY: 'false' });
    try {
      for (let n = 0; n < 10; n++) {
        await direct.client(`203.0.113.${n}`).post('/api/login', {
          form: { email: `nobody${n}@example.org`, password: 'Wrong!pass1' },
        });
      }
      const blocked = await direct.client('203.0.113.99').post('/api/login', {
        form: { email: 'someone@example.org', password: 'Wrong!pass1' },
      });
      expect(blocked.status).toBe(429);
    } finally {
      await direct.close();
    }
  });
});

describe('ADMIN_EMAIL and the CLI on an existing account', () => {
  it('takes over an unverified account with that address: new password, old sessions ended', async () => {
    const email = uniqueEmail('squatted-admin');
    const squatter = server.client();
    await registerUser(squatter, email, 'Squat!ter1');
    const result = await ensureAdmin({ db: server.db }, email, 'Real!admin1');
    expect(result).toMatchObject({ promoted: true, passwordSet: true });
    expect((await squatter.get('/api/user')).status).toBe(401);
    expect((await server.client().post('/api/login', { form: { email, password: 'Squat!ter1' } })).status).toBe(401);
    const admin = await server.client().post('/api/login', { form: { email, password: 'Real!admin1' } });
    expect(admin.json).toMatchObject({ isAdmin: true, isEmailVerified: true });
  });

  it('promotes a verified account and leaves its password alone', async () => {
    const email = uniqueEmail('verified-admin');
    const client = server.client();
    await registerUser(client, email);
    await client.post('/api/verify-email', { json: { verificationCode: server.outbox.latestCode(email) } });
    expect(await ensureAdmin({ db: server.db }, email, 'Other!pass1')).toMatchObject({
      promoted: true,
      passwordSet: false,
    });
    expect((await client.get('/api/user')).json).toMatchObject({ isAdmin: true });
    expect((await server.client().post('/api/login', { form: { email, password: strongPassword } })).status).toBe(200);
  });
});

describe('session lifetime', () => {
  it('answers an expired session with 401 and x-logged-out', async () => {
    const email = uniqueEmail('expired-session');
    const client = server.client();
    await registerUser(client, email);
    server.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, userIdOf(email)))
      .run();
    const response = await client.get('/api/user');
    expect(response.status).toBe(401);
    expect(response.headers.get('x-logged-out')).toBe('true');
  });

  it('slides: a session used after a day of its life is extended to 30 days again', async () => {
    const email = uniqueEmail('sliding');
    const client = server.client();
    await registerUser(client, email);
    const tenDays = 10 * 24 * 60 * 60 * 1000;
    server.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + tenDays) })
      .where(eq(sessions.userId, userIdOf(email)))
      .run();
    const response = await client.get('/api/user');
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toMatch(/soundcause_session=/);
    const row = server.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, userIdOf(email)))
      .get()!;
    expect(row.expiresAt.getTime()).toBeGreaterThan(Date.now() + SESSION_TTL_MS - 60_000);
  });

  it('also marks refusals (403, 413) to a dead session with x-logged-out', async () => {
    const client = server.client();
    client.cookies.set('soundcause_session', 'long-gone');
    const refused = await client.post('/api/logout', { headers: { origin: 'https://evil.example' } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('x-logged-out')).toBe('true');
  });
});

describe('limits on sending email', () => {
  it('sends at most 3 reset emails per address in 15 minutes, answering the same throughout', async () => {
    const email = uniqueEmail('reset-flood');
    await registerUser(server.client(), email);
    let previous: string | undefined;
    for (let n = 0; n < 3; n++) {
      expect((await server.client().post('/api/password-reset-email', { json: { email } })).status).toBe(200);
      previous = await server.outbox.latestResetToken(email, previous);
    }
    expect((await server.client().post('/api/password-reset-email', { json: { email } })).status).toBe(200);
    await server.settled();
    expect(server.outbox.messages(email).filter((message) => message.includes('Reset your'))).toHaveLength(3);
  });

  it('refuses an 11th reset request from one address in 15 minutes', async () => {
    const ip = '192.0.2.110';
    for (let n = 0; n < 10; n++) {
      const response = await server.client(ip).post('/api/password-reset-email', { json: { email: uniqueEmail('x') } });
      expect(response.status).toBe(200);
    }
    const blocked = await server.client(ip).post('/api/password-reset-email', { json: { email: uniqueEmail('x') } });
    expect(blocked.status).toBe(429);
    expect(blocked.json).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('refuses an 11th sign-up from one address in an hour', async () => {
    const ip = '192.0.2.111';
    for (let n = 0; n < 10; n++) await registerUser(server.client(ip), uniqueEmail('bulk-signup'));
    const blocked = await server.client(ip).post('/api/register', {
      json: { firstName: 'A', lastName: 'B', email: uniqueEmail('bulk-signup'), password: strongPassword },
    });
    expect(blocked.status).toBe(429);
  });

  it('sends a user at most 10 verification codes a day', async () => {
    const email = uniqueEmail('code-flood');
    const client = server.client();
    await registerUser(client, email);
    const resend = async () => {
      server.db
        .update(emailVerificationCodes)
        .set({ sentAt: new Date(Date.now() - 61_000) })
        .where(eq(emailVerificationCodes.userId, userIdOf(email)))
        .run();
      return client.post('/api/send-email-verification');
    };
    for (let n = 0; n < 9; n++) expect((await resend()).status).toBe(200);
    const blocked = await resend();
    expect(blocked.status).toBe(429);
    expect(blocked.json).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining('many codes today') });
    expect(server.outbox.messages(email)).toHaveLength(10);
  });
});

describe('with PUBLIC_URL set', () => {
  it('takes the origin from PUBLIC_URL, marks the cookie Secure and puts it in emailed links', async () => {
    const site = await startTestServer({ PUBLIC_URL: 'https://soundcause.example' });
    try {
      const email = 'public-url@example.org';
      const own = await site.client().post('/api/register', {
        json: { firstName: 'P', lastName: 'U', email, password: strongPassword },
        headers: { origin: 'https://soundcause.example' },
      });
      expect(own.status).toBe(201);
      expect(own.headers.get('set-cookie')).toMatch(/; Secure/);
      const hostOrigin = await site.client().post('/api/logout', { headers: { origin: site.baseUrl } });
      expect(hostOrigin.status).toBe(403);

      await site.client().post('/api/password-reset-email', { json: { email } });
      await site.outbox.latestResetToken(email);
      expect(site.outbox.messages(email).at(-1)).toContain('https://soundcause.example/reset-password/');
    } finally {
      await site.close();
    }
  });

  it('without PUBLIC_URL, never puts a forged Host into an emailed link', async () => {
    const email = uniqueEmail('host-header');
    await registerUser(server.client(), email);
    const forged = await rawRequest(server.baseUrl, {
      path: '/api/password-reset-email',
      headers: { host: 'evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    expect(forged.status).toBe(200);
    await server.outbox.latestResetToken(email);
    const message = server.outbox.messages(email).at(-1)!;
    expect(message).not.toContain('evil.example');
    expect(message).toContain('http://localhost:');
  });
});

describe('common passwords', () => {
  it('refuses the passwords attackers try first, dressed up or not, wherever a password is chosen', async () => {
    for (const password of ['P@ssw0rd1', 'Password1!', 'Summer2024!', 'Qwerty123!', 'Dr@gon!!1']) {
      const response = await server.client().post('/api/register', {
        json: { firstName: 'A', lastName: 'B', email: uniqueEmail('common'), password },
      });
      expect(response.status, password).toBe(400);
      expect(response.json, password).toEqual({
        formErrors: [{ field: 'password', message: messages.passwordCommon }],
      });
    }
    const client = server.client();
    const email = uniqueEmail('changer');
    await registerUser(client, email);
    const change = await client.post('/api/user/password', { json: { password: 'Welcome1!' } });
    expect(change.status).toBe(400);
    expect(change.json).toEqual({ formErrors: [{ field: 'password', message: messages.passwordCommon }] });
    await client.post('/api/password-reset-email', { json: { email } });
    const token = await server.outbox.latestResetToken(email);
    const reset = await server
      .client()
      .post('/api/password-reset', { json: { resetToken: token, password: 'Admin123!' } });
    expect(reset.status).toBe(400);
    // The link still works for a good password: a refused one did not spend it.
    const good = await server
      .client()
      .post('/api/password-reset', { json: { resetToken: token, password: 'Tr0ub4dor&3' } });
    expect(good.status).toBe(200);
  });
});

describe('forgot password', () => {
  it('answers before looking the address up, so known and unknown addresses take the same path', async () => {
    const held: (() => void | Promise<void>)[] = [];
    const holding = await startTestServer({}, { afterResponse: (task) => void held.push(task) });
    try {
      const email = uniqueEmail('known');
      await registerUser(holding.client(), email);
      for (const asked of [email, uniqueEmail('unknown')]) {
        const response = await holding.client().post('/api/password-reset-email', { json: { email: asked } });
        expect(response.status).toBe(200);
        expect(response.json).toEqual({ ok: true });
      }
      // Answered, and nothing done yet for either address: no token, no email, no throttle entry.
      expect(holding.db.select().from(passwordResetTokens).all()).toHaveLength(0);
      expect(holding.outbox.messages().filter((message) => message.includes('Reset your'))).toHaveLength(0);
      expect(held).toHaveLength(2);
      for (const task of held) await task();
      expect(holding.db.select().from(passwordResetTokens).all()).toHaveLength(1);
      expect(holding.outbox.messages(email).filter((message) => message.includes('Reset your'))).toHaveLength(1);
    } finally {
      await holding.close();
    }
  });
});
