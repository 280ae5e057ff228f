import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../shared/answers/api';
import { emailChangeSchema, userSchema } from '../../shared/answers/accounts';
import { artists, donations, fundraisers, purchases, users } from '../../server/db/schema';
import { createFundraiser } from '../fixtures/fundraisers';
import { adminClient, fieldErrors, registerUser, strongPassword, verifiedUser } from '../fixtures/test-server';
import { donate } from '../fixtures/donations';
import { useTestServer } from '../fixtures/use-test-server';

// The account page's calls (issue 9): the name, a change of email address proven by a code sent
// to the new one, and deleting the account while keeping donations and purchases.

const server = useTestServer();

let counter = 0;
const uniqueEmail = (label: string) => `${label}-${++counter}@example.org`;

describe('PATCH /api/user', () => {
  it('changes the first and last name, trimmed, and answers the user', async () => {
    const client = server.client();
    const email = uniqueEmail('name');
    await registerUser(client, email);
    const response = await client.patch('/api/user', { json: { firstName: ' Grace ', lastName: 'Hopper' } });
    expect(response.status).toBe(200);
    expect(userSchema.parse(response.json)).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', email });
    expect(userSchema.parse((await client.get('/api/user')).json).firstName).toBe('Grace');
  });

  it("refuses empty and long names with the spec's messages, and guests with 401", async () => {
    const client = server.client();
    await registerUser(client, uniqueEmail('bad-name'));
    const response = await client.patch('/api/user', { json: { firstName: '  ', lastName: 'x'.repeat(101) } });
    expect(response.status).toBe(400);
    expect(fieldErrors(response.json)).toEqual({
      firstName: 'First name is required.',
      lastName: 'Last name cannot exceed 100 character(s).',
    });
    expect((await server.client().patch('/api/user', { json: { firstName: 'A', lastName: 'B' } })).status).toBe(401);
  });
});

describe('changing the email address', () => {
  it('keeps the old address until the code sent to the new one is entered, then tells the old one', async () => {
    const oldEmail = uniqueEmail('moving');
    const newEmail = uniqueEmail('moved');
    const client = await verifiedUser(server, oldEmail);

    const asked = await client.post('/api/user/email', { json: { email: newEmail, password: strongPassword } });
    expect(asked.status).toBe(200);
    expect(emailChangeSchema.parse(asked.json).pending?.newEmail).toBe(newEmail);
    expect(emailChangeSchema.parse((await client.get('/api/user/email')).json).pending?.newEmail).toBe(newEmail);
    // Nothing changes yet: the account still has its old, verified address.
    expect(userSchema.parse((await client.get('/api/user')).json)).toMatchObject({
      email: oldEmail,
      isEmailVerified: true,
    });
    const [codeEmail = ''] = server.outbox.messages(newEmail);
    expect(codeEmail).toContain('Subject: Confirm your new Soundcause email address');
    const code = server.outbox.latestEmailChangeCode(newEmail);

    const wrong = await client.post('/api/user/email/verify', {
      json: { verificationCode: code === '000000' ? '111111' : '000000' },
    });
    expect(wrong.status).toBe(400);
    expect(apiErrorSchema.parse(wrong.json).code).toBe('INVALID_VERIFICATION_CODE');

    const confirmed = await client.post('/api/user/email/verify', { json: { verificationCode: code } });
    expect(confirmed.status).toBe(200);
    expect(userSchema.parse(confirmed.json)).toMatchObject({ email: newEmail, isEmailVerified: true });
    expect(emailChangeSchema.parse((await client.get('/api/user/email')).json).pending).toBeNull();
    await server.settled();
    const notice = server.outbox.messages(oldEmail).find((message) => message.includes('email address was changed'));
    expect(notice).toContain(newEmail);
    // The new address logs in; the old one is free for someone else.
    const relogin = await server.client().post('/api/login', { form: { email: newEmail, password: strongPassword } });
    expect(relogin.status).toBe(200);
    expect((await registerUser(server.client(), oldEmail)).status).toBe(201);
  });

  it('asks for the current password, refuses an address in use or the same one, and can be cancelled', async () => {
    const email = uniqueEmail('careful');
    const taken = uniqueEmail('taken');
    await registerUser(server.client(), taken);
    const client = await verifiedUser(server, email);

    const wrongPassword = await client.post('/api/user/email', {
      json: { email: uniqueEmail('x'), password: 'Nope!123x' },
    });
    expect(wrongPassword.status).toBe(400);
    expect(fieldErrors(wrongPassword.json)).toEqual({ password: 'That password is not correct.' });

    const inUse = await client.post('/api/user/email', { json: { email: taken, password: strongPassword } });
    expect(fieldErrors(inUse.json)).toEqual({ email: 'Another account already uses this email address.' });
    const same = await client.post('/api/user/email', { json: { email, password: strongPassword } });
    expect(fieldErrors(same.json)).toEqual({ email: 'This is already your email address.' });

    const fresh = uniqueEmail('fresh');
    expect((await client.post('/api/user/email', { json: { email: fresh, password: strongPassword } })).status).toBe(
      200,
    );
    const cancelled = await client.delete('/api/user/email');
    expect(emailChangeSchema.parse(cancelled.json).pending).toBeNull();
    const late = await client.post('/api/user/email/verify', { json: { verificationCode: '123456' } });
    expect(late.status).toBe(400);
    expect(apiErrorSchema.parse(late.json).message).toBe(
      'There is no email change waiting. Please enter the new address again.',
    );
  });

  it('moves purchases with the address: Your music follows the new email', async () => {
    const buyer = uniqueEmail('buyer-old');
    const owner = await verifiedUser(server, uniqueEmail('seller'));
    const album = await createFundraiser(owner, { publish: true, tracks: 1 });
    const newEmail = uniqueEmail('buyer-new');
    await donate(server, { fundraiserId: album.id, email: newEmail, donationCents: 900 });
    const client = await verifiedUser(server, buyer);
    const listed = async () =>
      ((await client.get('/api/music-library/purchases')).json as { totalCount: number }).totalCount;
    expect(await listed()).toBe(0);
    await client.post('/api/user/email', { json: { email: newEmail, password: strongPassword } });
    const code = server.outbox.latestEmailChangeCode(newEmail);
    expect((await client.post('/api/user/email/verify', { json: { verificationCode: code } })).status).toBe(200);
    expect(await listed()).toBe(1);
  });
});

describe('DELETE /api/user', () => {
  it('deletes the account with the password: its content goes, its donations and purchases stay, the email is free again', async () => {
    const email = uniqueEmail('leaving');
    const client = await verifiedUser(server, email);
    const album = await createFundraiser(client, { publish: true, tracks: 1 });
    const fanEmail = uniqueEmail('fan');
    await donate(server, { fundraiserId: album.id, email: fanEmail, donationCents: 700 });
    // The leaving user bought someone else's album too.
    const elsewhere = await createFundraiser(await verifiedUser(server, uniqueEmail('stays')), {
      publish: true,
      tracks: 1,
    });
    await donate(server, { fundraiserId: elsewhere.id, email, donationCents: 600 });

    const wrong = await client.delete('/api/user', { json: { password: 'Wrong!pass1' } });
    expect(wrong.status).toBe(400);
    expect(fieldErrors(wrong.json)).toEqual({ password: 'That password is not correct.' });

    const deleted = await client.delete('/api/user', { json: { password: strongPassword } });
    expect(deleted.status).toBe(200);
    expect(deleted.headers.get('set-cookie')).toMatch(/soundcause_session=;/);
    expect((await client.get('/api/user')).status).toBe(401);

    const row = server.db.select().from(fundraisers).where(eq(fundraisers.id, album.id)).get()!;
    expect(row.deletedAt).not.toBeNull();
    expect(server.db.select().from(artists).where(eq(artists.id, album.artistId)).get()!.deletedAt).not.toBeNull();
    expect(server.db.select().from(donations).where(eq(donations.fundraiserId, album.id)).all()).toHaveLength(1);
    // Purchases stay with their buyers: the fan keeps the deleted account's album in Your music,
    // and the leaving user's own purchase is kept (with its donation) for the charity's records.
    const kept = (fundraiserId: number) =>
      server.db.select().from(purchases).where(eq(purchases.fundraiserId, fundraiserId)).all();
    expect(kept(album.id)).toMatchObject([{ email: fanEmail, revokedAt: null }]);
    expect(kept(elsewhere.id)).toMatchObject([{ email, revokedAt: null }]);
    expect(server.db.select().from(donations).where(eq(donations.fundraiserId, elsewhere.id)).all()).toHaveLength(1);
    const fan = await verifiedUser(server, fanEmail);
    const library = (await fan.get('/api/music-library/purchases')).json as { results: { projectId: number }[] };
    expect(library.results.map((owned) => owned.projectId)).toEqual([album.id]);
    // Nothing personal is left, and nobody can log in to it.
    const user = server.db.select().from(users).where(eq(users.id, row.userId)).get()!;
    expect(user).toMatchObject({ firstName: null, lastName: null, isAdmin: false });
    expect(user.email).not.toContain('leaving');
    expect((await server.client().post('/api/login', { form: { email, password: strongPassword } })).status).toBe(401);
    expect((await registerUser(server.client(), email)).status).toBe(201);
    await server.settled();
    expect(server.outbox.messages(email).some((message) => message.includes('account was deleted'))).toBe(true);
  });

  it("keeps the site's only admin, and needs a password and a session", async () => {
    const admin = await adminClient(server, 'only-admin@example.org');
    const refused = await admin.delete('/api/user', { json: { password: strongPassword } });
    expect(refused.status).toBe(409);
    expect(apiErrorSchema.parse(refused.json).message).toMatch(/only admin/);
    expect((await admin.get('/api/user')).status).toBe(200);

    const guest = await server.client().delete('/api/user', { json: { password: strongPassword } });
    expect(guest.status).toBe(401);
    const client = server.client();
    await registerUser(client, uniqueEmail('no-password'));
    expect(fieldErrors((await client.delete('/api/user', { json: {} })).json)).toEqual({
      password: 'Password is required.',
    });
  });
});
