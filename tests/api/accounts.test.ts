import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiErrorSchema, formErrorsSchema } from '../../shared/answers/api';
import { userSchema } from '../../shared/answers/accounts';
import { emailVerificationCodes, passwordResetTokens, users } from '../../server/db/schema';
import { rawRequest, registerUser, strongPassword } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

const server = useTestServer();

let counter = 0;
const uniqueEmail = (label: string) => `${label}-${++counter}@example.org`;

const formErrors = (json: unknown) => formErrorsSchema.parse(json).formErrors;
const apiError = (json: unknown) => apiErrorSchema.parse(json);

describe('GET /api/health and unknown paths', () => {
  it('answers ok once migrations are applied', async () => {
    const response = await server.client().get('/api/health');
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ ok: true });
  });

  it('answers unknown API paths with JSON 404, never the app', async () => {
    const response = await server.client().get('/api/does-not-exist');
    expect(response.status).toBe(404);
    expect(apiError(response.json).code).toBe('OTHER');
  });
});

describe('POST /api/register', () => {
  it('creates the account, starts a session and emails a 6-digit code in text and HTML', async () => {
    const client = server.client();
    const email = uniqueEmail('new');
    const response = await client.post('/api/register', {
      json: { firstName: ' Ada ', lastName: 'Lovelace', email: email.toUpperCase(), password: strongPassword },
    });
    expect(response.status).toBe(201);
    expect(userSchema.parse(response.json)).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email,
      isEmailVerified: false,
      isAdmin: false,
    });
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/soundcause_session=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);

    const me = await client.get('/api/user');
    expect(me.status).toBe(200);
    expect(userSchema.parse(me.json).email).toBe(email);

    const [message = ''] = server.outbox.messages(email);
    expect(message).toContain('Subject: Your Soundcause verification code');
    expect(message).toContain('Content-Type: text/plain');
    expect(message).toContain('Content-Type: text/html');
    expect(server.outbox.latestCode(email)).toMatch(/^\d{6}$/);
  });

  it('stores an argon2id hash, never the password', async () => {
    const email = uniqueEmail('hash');
    await registerUser(server.client(), email);
    const row = server.db.select().from(users).where(eq(users.email, email)).get();
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row?.passwordHash).not.toContain(strongPassword);
  });

  it('refuses a second account for the same email (any case) with 409', async () => {
    const email = uniqueEmail('dup');
    await registerUser(server.client(), email);
    const again = await server.client().post('/api/register', {
      json: { firstName: 'A', lastName: 'B', email: email.toUpperCase(), password: strongPassword },
    });
    expect(again.status).toBe(409);
    expect(apiError(again.json)).toEqual({ code: 'OTHER', message: 'a user with this email already exists' });
  });

  it('answers invalid input with the exact messages on their fields', async () => {
    const response = await server.client().post('/api/register', {
      json: { firstName: '', lastName: 'x'.repeat(101), email: 'nope', password: 'weak' },
    });
    expect(response.status).toBe(400);
    const byField = Object.fromEntries(formErrors(response.json).map((error) => [error.field, error.message]));
    expect(byField).toEqual({
      firstName: 'First name is required.',
      lastName: 'Last name cannot exceed 100 character(s).',
      email: 'Please enter a valid email.',
      password: 'Must contain at least 8 characters.',
    });
  });

  it('refuses other content types with 415, malformed JSON with 400 and huge bodies with 413', async () => {
    const client = server.client();
    const form = await client.post('/api/register', { form: { email: 'a@b.co' } });
    expect(form.status).toBe(415);
    expect(apiError(form.json).message).toMatch(/JSON/);

    const malformed = await client.post('/api/register', {
      body: '{"firstName":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(apiError(malformed.json).message).toBe('The request body is not valid JSON.');

    const huge = await rawRequest(server.baseUrl, {
      path: '/api/register',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(huge.status).toBe(413);
    expect(apiError(huge.json).message).toBe('The request body is too large.');
  });
});

describe('POST /api/login and /api/logout', () => {
  it('logs in with a form-urlencoded body and answers the user', async () => {
    const email = uniqueEmail('login');
    await registerUser(server.client(), email);
    const client = server.client();
    const response = await client.post('/api/login', {
      form: { email: email.toUpperCase(), password: strongPassword },
    });
    expect(response.status).toBe(200);
    expect(userSchema.parse(response.json).email).toBe(email);
    expect((await client.get('/api/user')).status).toBe(200);
  });

  it('says "Incorrect email or password." for a wrong password and for an unknown email alike', async () => {
    const email = uniqueEmail('wrong');
    await registerUser(server.client(), email);
    const wrongPassword = await server.client().post('/api/login', { form: { email, password: 'Wrong!pass1' } });
    const unknown = await server.client().post('/api/login', {
      form: { email: uniqueEmail('nobody'), password: strongPassword },
    });
    for (const response of [wrongPassword, unknown]) {
      expect(response.status).toBe(401);
      expect(apiError(response.json)).toEqual({ code: 'OTHER', message: 'Incorrect email or password.' });
    }
  });

  it('validates the form and refuses JSON', async () => {
    const invalid = await server.client().post('/api/login', { form: { email: 'nope', password: '' } });
    expect(invalid.status).toBe(400);
    expect(formErrors(invalid.json).map((error) => error.message)).toEqual([
      'Please enter a valid email.',
      'Password is required.',
    ]);
    const json = await server.client().post('/api/login', { json: { email: 'a@b.co', password: 'x' } });
    expect(json.status).toBe(415);
  });

  it('after 10 failures at an account, holds back the addresses that failed, not its owner at a clean one', async () => {
    const email = uniqueEmail('throttle');
    await registerUser(server.client(), email);
    const guessers = Array.from({ length: 10 }, () => server.client());
    for (const guesser of guessers) {
      const response = await guesser.post('/api/login', { form: { email, password: 'Wrong!pass1' } });
      expect(response.status).toBe(401);
    }
    // An address that failed for the account is held back, even with the right password…
    const blocked = await guessers[0]!.post('/api/login', { form: { email, password: strongPassword } });
    expect(blocked.status).toBe(429);
    expect(apiError(blocked.json).code).toBe('RATE_LIMITED');
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // …a new address gets one guess at it and no more…
    const newcomer = server.client();
    expect((await newcomer.post('/api/login', { form: { email, password: 'Wrong!pass2' } })).status).toBe(401);
    expect((await newcomer.post('/api/login', { form: { email, password: strongPassword } })).status).toBe(429);
    // …and the owner, at an address that has not failed, gets in.
    const owner = await server.client().post('/api/login', { form: { email, password: strongPassword } });
    expect(owner.status).toBe(200);
  });

  it('lets the owner in after mistyping at the same address, once the password is right', async () => {
    const email = uniqueEmail('typos');
    await registerUser(server.client(), email);
    const owner = server.client();
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await owner.post('/api/login', { form: { email, password: 'Wrong!pass1' } })).status).toBe(401);
    }
    expect((await owner.post('/api/login', { form: { email, password: strongPassword } })).status).toBe(200);
  });

  it('lets the owner in from an address that has not failed, however many addresses guessed, and holds each that did', async () => {
    const email = uniqueEmail('spread');
    await registerUser(server.client(), email);
    // Guesses from 60 addresses, one each: each address gets its one try at the account.
    const guessers = Array.from({ length: 60 }, () => server.client());
    for (const [attempt, guesser] of guessers.entries()) {
      const response = await guesser.post('/api/login', { form: { email, password: `Wrong!pass${attempt}` } });
      expect(response.status).toBe(401);
    }
    // An address that guessed waits out the hour, the right password or not.
    const held = await guessers[0]!.post('/api/login', { form: { email, password: strongPassword } });
    expect(held.status).toBe(429);
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(15 * 60);
    // The owner, at an address that has not failed for the account, gets in (issue 22).
    expect((await server.client().post('/api/login', { form: { email, password: strongPassword } })).status).toBe(200);
  });

  it('throttles one address after 10 failures across many emails', async () => {
    const ip = '192.0.2.77';
    for (let attempt = 0; attempt < 10; attempt++) {
      await server.client(ip).post('/api/login', { form: { email: uniqueEmail('spray'), password: 'Wrong!pass1' } });
    }
    const email = uniqueEmail('victim');
    await registerUser(server.client(), email);
    const blocked = await server.client(ip).post('/api/login', { form: { email, password: strongPassword } });
    expect(blocked.status).toBe(429);
    const otherAddress = await server.client().post('/api/login', { form: { email, password: strongPassword } });
    expect(otherAddress.status).toBe(200);
  });

  it('logs out: the session is gone and the cookie cleared', async () => {
    const client = server.client();
    await registerUser(client, uniqueEmail('logout'));
    const response = await client.post('/api/logout');
    expect(response.status).toBe(200);
    expect(client.cookies.size).toBe(0);
    expect((await client.get('/api/user')).status).toBe(401);
  });

  it('marks every response to a request with a dead session with x-logged-out: true', async () => {
    const client = server.client();
    await registerUser(client, uniqueEmail('dead'));
    const cookie = [...client.cookies][0]!;
    await client.post('/api/logout');
    const stale = server.client();
    stale.cookies.set(cookie[0], cookie[1]);
    const user = await stale.get('/api/user');
    expect(user.status).toBe(401);
    expect(user.headers.get('x-logged-out')).toBe('true');

    const forged = server.client();
    forged.cookies.set('soundcause_session', 'forged-value');
    const health = await forged.get('/api/health');
    expect(health.status).toBe(200);
    expect(health.headers.get('x-logged-out')).toBe('true');

    const fresh = await server.client().get('/api/health');
    expect(fresh.headers.get('x-logged-out')).toBeNull();
  });

  it('gives a new session id on each login (no session fixation)', async () => {
    const email = uniqueEmail('fixation');
    const client = server.client();
    await registerUser(client, email);
    const before = client.cookies.get('soundcause_session');
    await client.post('/api/login', { form: { email, password: strongPassword } });
    const after = client.cookies.get('soundcause_session');
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    const old = server.client();
    old.cookies.set('soundcause_session', before!);
    expect((await old.get('/api/user')).status).toBe(401);
  });
});

describe('email verification', () => {
  async function newUser(label: string) {
    const client = server.client();
    const email = uniqueEmail(label);
    await registerUser(client, email);
    const userId = server.db.select().from(users).where(eq(users.email, email)).get()!.id;
    return { client, email, userId };
  }

  it('verifies with the emailed code, then refuses to verify again', async () => {
    const { client, email } = await newUser('verify');
    const response = await client.post('/api/verify-email', {
      json: { verificationCode: server.outbox.latestCode(email) },
    });
    expect(response.status).toBe(200);
    expect(userSchema.parse(response.json).isEmailVerified).toBe(true);
    expect(userSchema.parse((await client.get('/api/user')).json).isEmailVerified).toBe(true);

    const again = await client.post('/api/verify-email', { json: { verificationCode: '123456' } });
    expect(again.status).toBe(400);
    expect(apiError(again.json).code).toBe('EMAIL_ALREADY_VERIFIED');
    const resend = await client.post('/api/send-email-verification');
    expect(apiError(resend.json).code).toBe('EMAIL_ALREADY_VERIFIED');
  });

  it('refuses a wrong code, then locks the code after 5 wrong tries', async () => {
    const { client, email } = await newUser('wrongcode');
    const right = server.outbox.latestCode(email);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let attempt = 1; attempt <= 4; attempt++) {
      const response = await client.post('/api/verify-email', { json: { verificationCode: wrong } });
      expect(response.status).toBe(400);
      expect(apiError(response.json).code).toBe('INVALID_VERIFICATION_CODE');
    }
    const fifth = await client.post('/api/verify-email', { json: { verificationCode: wrong } });
    expect(fifth.status).toBe(429);
    expect(apiError(fifth.json).code).toBe('VERIFICATION_ATTEMPTS_EXCEEDED');
    const evenRight = await client.post('/api/verify-email', { json: { verificationCode: right } });
    expect(apiError(evenRight.json).code).toBe('VERIFICATION_ATTEMPTS_EXCEEDED');
  });

  it('refuses an expired code', async () => {
    const { client, email, userId } = await newUser('expired');
    server.db
      .update(emailVerificationCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailVerificationCodes.userId, userId))
      .run();
    const response = await client.post('/api/verify-email', {
      json: { verificationCode: server.outbox.latestCode(email) },
    });
    expect(response.status).toBe(400);
    expect(apiError(response.json).code).toBe('INVALID_VERIFICATION_CODE');
  });

  it('answers a 5-character code with formErrors', async () => {
    const { client } = await newUser('short');
    const response = await client.post('/api/verify-email', { json: { verificationCode: '12345' } });
    expect(response.status).toBe(400);
    expect(formErrors(response.json)).toEqual([
      expect.objectContaining({
        field: 'verificationCode',
        message: 'Verification code must have exactly 6 character(s).',
      }),
    ]);
  });

  it('resends at most once a minute, and a resent code replaces the old one', async () => {
    const { client, email, userId } = await newUser('resend');
    const first = server.outbox.latestCode(email);
    const tooSoon = await client.post('/api/send-email-verification');
    expect(tooSoon.status).toBe(429);
    expect(apiError(tooSoon.json).code).toBe('RATE_LIMITED');

    const resendUntilNewCode = async (): Promise<string> => {
      for (let attempt = 0; attempt < 5; attempt++) {
        server.db
          .update(emailVerificationCodes)
          .set({ sentAt: new Date(Date.now() - 61_000) })
          .where(eq(emailVerificationCodes.userId, userId))
          .run();
        expect((await client.post('/api/send-email-verification')).status).toBe(200);
        const code = server.outbox.latestCode(email);
        if (code !== first) return code; // one chance in a million of drawing the same six digits
      }
      throw new Error('the code never changed');
    };
    const second = await resendUntilNewCode();
    const old = await client.post('/api/verify-email', { json: { verificationCode: first } });
    expect(apiError(old.json).code).toBe('INVALID_VERIFICATION_CODE');
    expect((await client.post('/api/verify-email', { json: { verificationCode: second } })).status).toBe(200);
  });

  it('needs a session', async () => {
    const guest = server.client();
    expect((await guest.post('/api/verify-email', { json: { verificationCode: '123456' } })).status).toBe(401);
    expect((await guest.post('/api/send-email-verification')).status).toBe(401);
  });
});

describe('password reset', () => {
  it('answers 200 whether or not the account exists, and emails only real accounts', async () => {
    const email = uniqueEmail('reset-known');
    await registerUser(server.client(), email);
    const unknown = uniqueEmail('reset-unknown');
    const forUnknown = await server.client().post('/api/password-reset-email', { json: { email: unknown } });
    const forKnown = await server.client().post('/api/password-reset-email', { json: { email } });
    expect(forUnknown.status).toBe(200);
    expect(forKnown.status).toBe(200);
    expect(forUnknown.json).toEqual(forKnown.json);
    expect(await server.outbox.latestResetToken(email)).toHaveLength(43);
    const message = server.outbox.messages(email).at(-1)!;
    expect(message).toContain('Subject: Reset your Soundcause password');
    expect(server.outbox.messages(unknown)).toHaveLength(0);
  });

  it('validates the email', async () => {
    const response = await server.client().post('/api/password-reset-email', { json: { email: 'nope' } });
    expect(response.status).toBe(400);
    expect(formErrors(response.json)[0]?.message).toBe('Please enter a valid email.');
  });

  it('resets once: token-user, new password works, old does not, token dead, other sessions ended', async () => {
    const email = uniqueEmail('reset');
    const elsewhere = server.client();
    await registerUser(elsewhere, email);
    await server.client().post('/api/password-reset-email', { json: { email } });
    const token = await server.outbox.latestResetToken(email);

    const tokenUser = await server.client().get(`/api/token-user/${token}`);
    expect(tokenUser.status).toBe(200);
    expect(tokenUser.json).toEqual({ email });

    const newPassword = 'N3w!password';
    const reset = await server
      .client()
      .post('/api/password-reset', { json: { password: newPassword, resetToken: token } });
    expect(reset.status).toBe(200);

    expect((await server.client().post('/api/login', { form: { email, password: strongPassword } })).status).toBe(401);
    const login = await server.client().post('/api/login', { form: { email, password: newPassword } });
    expect(login.status).toBe(200);
    // The emailed link proved the address.
    expect(userSchema.parse(login.json).isEmailVerified).toBe(true);

    const reused = await server.client().post('/api/password-reset', {
      json: { password: 'An0ther!pass', resetToken: token },
    });
    expect(reused.status).toBe(404);
    expect(apiError(reused.json).message).toBe(
      'Password reset token is not valid. Please create a new password reset email.',
    );
    expect((await server.client().get(`/api/token-user/${token}`)).status).toBe(404);

    const old = await elsewhere.get('/api/user');
    expect(old.status).toBe(401);
    expect(old.headers.get('x-logged-out')).toBe('true');
  });

  it('stores tokens hashed and refuses expired ones', async () => {
    const email = uniqueEmail('reset-expired');
    await registerUser(server.client(), email);
    await server.client().post('/api/password-reset-email', { json: { email } });
    const token = await server.outbox.latestResetToken(email);
    const rows = server.db.select().from(passwordResetTokens).all();
    expect(rows.some((row) => row.tokenHash === token)).toBe(false);

    server.db
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .run();
    expect((await server.client().get(`/api/token-user/${token}`)).status).toBe(404);
    const reset = await server.client().post('/api/password-reset', {
      json: { password: 'N3w!password', resetToken: token },
    });
    expect(reset.status).toBe(404);
  });

  it('checks the new password rules and rejects a missing or over-long token', async () => {
    const weak = await server.client().post('/api/password-reset', { json: { password: 'weak', resetToken: 'x' } });
    expect(weak.status).toBe(400);
    expect(formErrors(weak.json)[0]?.message).toBe('Must contain at least 8 characters.');
    const missing = await server.client().post('/api/password-reset', { json: { password: strongPassword } });
    expect(missing.status).toBe(404);
    const long = await server.client().get(`/api/token-user/${'x'.repeat(300)}`);
    expect(long.status).toBe(404);
  });
});

describe('POST /api/user/password', () => {
  it('changes the password and ends the other sessions but not this one', async () => {
    const email = uniqueEmail('change');
    const here = server.client();
    await registerUser(here, email);
    const elsewhere = server.client();
    await elsewhere.post('/api/login', { form: { email, password: strongPassword } });

    const response = await here.post('/api/user/password', { json: { password: 'Chang3d!pass' } });
    expect(response.status).toBe(200);
    expect((await here.get('/api/user')).status).toBe(200);
    expect((await elsewhere.get('/api/user')).headers.get('x-logged-out')).toBe('true');
    expect((await server.client().post('/api/login', { form: { email, password: 'Chang3d!pass' } })).status).toBe(200);
  });

  it('needs a session and a strong password', async () => {
    expect((await server.client().post('/api/user/password', { json: { password: 'Chang3d!pass' } })).status).toBe(401);
    const client = server.client();
    await registerUser(client, uniqueEmail('change-weak'));
    const weak = await client.post('/api/user/password', { json: { password: 'password' } });
    expect(weak.status).toBe(400);
    expect(formErrors(weak.json)[0]?.message).toBe('Must contain at least one uppercase letter.');
  });
});

describe('cross-origin requests', () => {
  it('refuses state-changing requests from another origin', async () => {
    const email = uniqueEmail('csrf');
    await registerUser(server.client(), email);
    const evil = await server.client().post('/api/login', {
      form: { email, password: strongPassword },
      headers: { origin: 'https://evil.example' },
    });
    expect(evil.status).toBe(403);
    expect(apiError(evil.json).message).toBe('Cross-origin requests are not allowed.');

    const opaque = await server.client().post('/api/logout', { headers: { origin: 'null' } });
    expect(opaque.status).toBe(403);

    const crossSite = await server.client().post('/api/logout', { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
  });

  it("accepts the site's own origin", async () => {
    const email = uniqueEmail('same-origin');
    await registerUser(server.client(), email);
    const response = await server.client().post('/api/login', {
      form: { email, password: strongPassword },
      headers: { origin: server.baseUrl },
    });
    expect(response.status).toBe(200);
  });
});
