import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { sessions, users } from '../../server/db/schema';
import { ensureAdmin } from '../../server/features/accounts/service';
import { mobileViewport } from '../fixtures/browser';
import { allowConsoleErrors } from '../fixtures/console-errors';
import { fillForm, logIn, newContext, newPage, useAppAndBrowser } from '../fixtures/e2e-app';
import { registerUser, strongPassword, type TestServer } from '../fixtures/test-server';

let server: TestServer;
let browser: Browser;
useAppAndBrowser((startedServer, startedBrowser) => {
  server = startedServer;
  browser = startedBrowser;
});

describe('account journey in Chromium', () => {
  it('signs up, verifies with the emailed code, logs out, logs in, resets the password and logs in again', async () => {
    const { page } = await newPage(browser);
    const email = 'journey@example.org';
    // Provoked on purpose below: a new code asked for too soon, a wrong password, a spent reset link.
    allowConsoleErrors(
      page,
      /status of 429 .*\/api\/send-email-verification\)$/,
      /status of 401 .*\/api\/login\)$/,
      /status of 4\d\d .*\/api\/token-user\/[^/]+\)$/,
    );

    await page.goto(`${server.baseUrl}/signup?email=${encodeURIComponent(email)}`);
    await expect.poll(() => page.title()).toBe('Create an account | Soundcause');
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(email);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('First name is required.').waitFor();

    await fillForm(page, {
      'First name': 'June',
      'Last name': 'Carter',
      Password: strongPassword,
      'Confirm password': 'Mismatch!1',
    });
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText("Passwords don't match!").waitFor();
    await page.getByLabel('Confirm password').fill(strongPassword);
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.waitForURL('**/user/verify-email');
    await page.getByRole('heading', { name: 'Verify your email' }).waitFor();
    await page.getByLabel('Verification code').fill('12345');
    await page.getByRole('button', { name: 'Verify email' }).click();
    await page.getByText('Verification code must have exactly 6 character(s).').waitFor();

    await page.getByRole('button', { name: 'Send a new code' }).click();
    await page.getByText('Please wait a minute before requesting another code.').waitFor();

    await page.getByLabel('Verification code').fill(server.outbox.latestCode(email));
    await page.getByRole('button', { name: 'Verify email' }).click();
    await page.getByRole('heading', { name: 'Email verified!' }).waitFor();

    await page.getByRole('button', { name: `Account menu for ${email}` }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL(`${server.baseUrl}/`);
    await page.getByRole('button', { name: 'Log in' }).first().waitFor();

    await page.goto(`${server.baseUrl}/login`);
    await fillForm(page, { Email: email, Password: 'Wrong!pass1' });
    await page.locator('main').getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByText('Incorrect email or password.').waitFor();
    await page.getByLabel('Password', { exact: true }).fill(strongPassword);
    await page.locator('main').getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(`${server.baseUrl}/`);
    await page.getByRole('button', { name: `Account menu for ${email}` }).waitFor();

    // Forgotten password, through the login dialog.
    await page.getByRole('button', { name: `Account menu for ${email}` }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.locator('header').getByRole('button', { name: 'Log in' }).click();
    const dialog = page.getByRole('dialog', { name: 'Log in' });
    await dialog.getByRole('button', { name: 'Forgot password?' }).click();
    const forgot = page.getByRole('dialog', { name: 'Forgot password' });
    await forgot.getByLabel('Email').fill(email);
    await forgot.getByRole('button', { name: 'Send email' }).click();
    await forgot.getByText('Check your email for the password reset instructions.').waitFor();
    await page.keyboard.press('Escape');

    const token = await server.outbox.latestResetToken(email);
    await page.goto(`${server.baseUrl}/reset-password/${token}`);
    await page.getByText(`Choose a new password for ${email}`).waitFor();
    await fillForm(page, { 'New password': 'Brand!new2', 'Confirm password': 'Brand!new2' });
    await page.getByRole('button', { name: 'Save new password' }).click();
    // The follow-up login succeeds, so the user lands home, logged in, and is told so once.
    await page.waitForURL(`${server.baseUrl}/`);
    await page.getByRole('button', { name: `Account menu for ${email}` }).waitFor();
    await page.getByText('Your password has been changed. You are logged in.').waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'How it works' }).click();
    // The home page has a 'How it works' section too, so wait for the route itself.
    await page.waitForURL(`${server.baseUrl}/howitworks`);
    await page.getByRole('heading', { name: 'How it works', level: 1 }).waitFor();
    expect(await page.getByText('Your password has been changed.').count()).toBe(0);

    // The link is spent now.
    await page.goto(`${server.baseUrl}/reset-password/${token}`);
    await page.waitForURL(`${server.baseUrl}/`);
    await page.getByRole('button', { name: `Account menu for ${email}` }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    // Leaving before the logout's answer arrives would keep the signed-in hint, and the next page
    // would ask for a user whose session is gone.
    await page.locator('header').getByRole('button', { name: 'Log in' }).waitFor();
    await page.goto(`${server.baseUrl}/reset-password/${token}`);
    await page.getByText('The reset password link has expired').waitFor();
    expect(await page.locator('main').getByRole('link', { name: 'contact us' }).getAttribute('href')).toBe('/contact');

    await page.goto(`${server.baseUrl}/login`);
    await fillForm(page, { Email: email, Password: 'Brand!new2' });
    await page.locator('main').getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(`${server.baseUrl}/`);
  });

  it('sends a guest from /user to login and back to /user afterwards', async () => {
    const email = 'returning@example.org';
    await registerUser(server.client(), email);
    const { page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/user`);
    await page.waitForURL('**/login');
    await expect.poll(() => page.title()).toBe('Login | Soundcause');
    await fillForm(page, { Email: email, Password: strongPassword });
    await page.locator('main').getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL('**/user');
    await page.getByRole('heading', { name: 'Account details' }).waitFor();
    await page.getByText(email).first().waitFor();
    // Logged in, the login page sends the user away.
    await page.goto(`${server.baseUrl}/login`);
    await page.waitForURL(`${server.baseUrl}/`);
  });

  it('sends an unverified user from /artists/new to verify, then back', async () => {
    const email = 'unverified@example.org';
    const { page } = await newPage(browser);
    await registerUser(server.client(), email);
    await page.goto(`${server.baseUrl}/login`);
    await fillForm(page, { Email: email, Password: strongPassword });
    await page.locator('main').getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(`${server.baseUrl}/`);
    await page.goto(`${server.baseUrl}/artists/new`);
    await page.waitForURL('**/user/verify-email');
    await page.getByLabel('Verification code').fill(server.outbox.latestCode(email));
    await page.getByRole('button', { name: 'Verify email' }).click();
    await page.waitForURL('**/artists/new');
    await page.getByRole('heading', { name: 'Create a new artist' }).waitFor();
  });

  it('shows the duplicate-account dialog with a link to log in', async () => {
    await registerUser(server.client(), 'taken@example.org');
    const { page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/signup`);
    await fillForm(page, {
      'First name': 'Dup',
      'Last name': 'Licate',
      Email: 'taken@example.org',
      Password: strongPassword,
      'Confirm password': strongPassword,
    });
    allowConsoleErrors(page, /status of 409 .*\/api\/register\)$/);
    await page.getByRole('button', { name: 'Create account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Unable to create account' });
    await dialog.getByText('An account already exists for this email.').waitFor();
    await dialog.getByRole('link', { name: 'click here to log in' }).click();
    await page.waitForURL('**/login');
  });

  it('changes the password on the account page', async () => {
    const email = 'changer@example.org';
    await registerUser(server.client(), email);
    const { page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/login`);
    await fillForm(page, { Email: email, Password: strongPassword });
    await page.locator('main').getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(`${server.baseUrl}/`);
    await page.goto(`${server.baseUrl}/user`);
    await fillForm(page, { 'New password': 'weakpass', 'Confirm password': 'weakpass' });
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Must contain at least one uppercase letter.').waitFor();
    await fillForm(page, { 'New password': 'Chang3d!pw', 'Confirm password': 'Chang3d!pw' });
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password has been changed.').waitFor();
    const login = await server.client().post('/api/login', { form: { email, password: 'Chang3d!pw' } });
    expect(login.status).toBe(200);
  });

  it('logs out automatically when the server says the session is dead', async () => {
    const email = 'killed@example.org';
    await registerUser(server.client(), email);
    const { page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/login`);
    await fillForm(page, { Email: email, Password: strongPassword });
    await page.locator('main').getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(`${server.baseUrl}/`);
    await page.goto(`${server.baseUrl}/user`);
    await page.getByRole('heading', { name: 'Account details' }).waitFor();

    const userId = server.db.select().from(users).where(eq(users.email, email)).get()!.id;
    server.db.delete(sessions).where(eq(sessions.userId, userId)).run();
    allowConsoleErrors(page, /status of 401 .*\/api\/user\/password\)$/);

    await fillForm(page, { 'New password': 'Chang3d!pw', 'Confirm password': 'Chang3d!pw' });
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => sessionStorage.getItem('soundcause-user'))).toBeNull();
  });

  it('shows Admin dashboard in the account menu only to admins; the menu closes on Escape and outside clicks', async () => {
    await ensureAdmin({ db: server.db }, 'root@example.org', strongPassword);
    await registerUser(server.client(), 'plain@example.org');
    for (const [email, isAdmin] of [
      ['root@example.org', true],
      ['plain@example.org', false],
    ] as const) {
      const { page } = await newPage(browser);
      await page.goto(`${server.baseUrl}/login`);
      await fillForm(page, { Email: email, Password: strongPassword });
      await page.locator('main').getByRole('button', { name: 'Log in', exact: true }).click();
      const badge = page.getByRole('button', { name: `Account menu for ${email}` });
      await badge.click();
      const menu = page.getByRole('menu');
      await menu.waitFor();
      const items = await menu.getByRole('menuitem').allTextContents();
      expect(items).toEqual([
        'Account details',
        'Your music',
        'Giving history',
        'Your artists',
        'Your fundraisers',
        ...(isAdmin ? ['Admin dashboard'] : []),
        'Log out',
      ]);
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });
      await badge.click();
      await menu.waitFor();
      await page.mouse.click(5, 400);
      await menu.waitFor({ state: 'detached' });
    }
  });

  it('sends a user who logs in through the dialog on /signup home, not to verification', async () => {
    await registerUser(server.client(), 'dialog-on-signup@example.org');
    const { page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/signup`);
    await page.locator('header').getByRole('button', { name: 'Log in' }).click();
    const dialog = page.getByRole('dialog', { name: 'Log in' });
    await dialog.getByLabel('Email').fill('dialog-on-signup@example.org');
    await dialog.getByLabel('Password').fill(strongPassword);
    await dialog.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(`${server.baseUrl}/`);
  });

  it('sends a logged-in user opening /signup in a new tab home', async () => {
    await registerUser(server.client(), 'new-tab@example.org');
    const context = await newContext(browser);
    const first = await context.newPage();
    await first.goto(`${server.baseUrl}/login`);
    await fillForm(first, { Email: 'new-tab@example.org', Password: strongPassword });
    await first.locator('main').getByRole('button', { name: 'Log in', exact: true }).click();
    await first.waitForURL(`${server.baseUrl}/`);
    // A new tab shares the cookie but not sessionStorage.
    const second = await context.newPage();
    await second.goto(`${server.baseUrl}/signup`);
    await second.waitForURL(`${server.baseUrl}/`);
    await context.close();
  });

  it('keeps admins-only pages from everyone else', async () => {
    await registerUser(server.client(), 'not-an-admin@example.org');
    const { page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/admin`);
    await page.waitForURL('**/login');
    await fillForm(page, { Email: 'not-an-admin@example.org', Password: strongPassword });
    await page.locator('main').getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(`${server.baseUrl}/`);

    await ensureAdmin({ db: server.db }, 'the-admin@example.org', strongPassword);
    const admin = await newPage(browser);
    await admin.page.goto(`${server.baseUrl}/login`);
    await fillForm(admin.page, { Email: 'the-admin@example.org', Password: strongPassword });
    await admin.page.locator('main').getByRole('button', { name: 'Log in', exact: true }).click();
    await admin.page.waitForURL(`${server.baseUrl}/`);
    await admin.page.goto(`${server.baseUrl}/admin/some/where/disbursements`);
    await admin.page.getByText('No disbursements!').waitFor();
    await admin.page.goto(`${server.baseUrl}/admin`);
    await admin.page.getByText('No transactions!').waitFor();
    await admin.page.getByRole('link', { name: 'Disbursements' }).click();
    await admin.page.getByText('No disbursements!').waitFor();
    await admin.page.getByRole('link', { name: 'Featured fundraisers' }).click();
    await admin.page.getByText('No projects!').waitFor();
    const download = admin.page.waitForEvent('download');
    await admin.page.getByRole('link', { name: 'Download mailing list (CSV)' }).click();
    expect((await download).suggestedFilename()).toBe('mailing-list.csv');
  });
  it('keeps the admin tabs on one row that scrolls sideways at 390 px, with the current tab in view', async () => {
    await ensureAdmin({ db: server.db }, 'tabs-admin@example.org', strongPassword);
    const { page } = await newPage(browser, mobileViewport);
    await logIn(page, server.baseUrl, 'tabs-admin@example.org');
    await page.goto(`${server.baseUrl}/admin/featured-charities`);
    const tabs = page.getByRole('navigation', { name: 'Admin sections' });
    await tabs.getByRole('link', { name: 'Transactions' }).waitFor();
    const tops = await tabs
      .getByRole('link')
      .evaluateAll((links) => links.map((link) => Math.round(link.getBoundingClientRect().top)));
    expect(tops).toHaveLength(6);
    expect(new Set(tops).size).toBe(1);
    expect(await tabs.evaluate((nav) => nav.scrollWidth > nav.clientWidth)).toBe(true);
    const current = tabs.getByRole('link', { name: 'Featured charities' });
    expect(await current.getAttribute('aria-current')).toBe('page');
    await expect
      .poll(() => current.evaluate((link) => link.getBoundingClientRect().right <= window.innerWidth))
      .toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(mobileViewport.width);
    await page.screenshot({ path: path.join(os.tmpdir(), 'soundcause-admin-tabs-390.png') });
  });

  it('treats a visitor as a guest when the session check fails, instead of waiting forever', async () => {
    const { page } = await newPage(browser);
    // A signed-in hint, so the page asks; the request is cut off on purpose.
    await page.context().addCookies([{ name: 'soundcause_signed_in', value: '1', url: server.baseUrl }]);
    allowConsoleErrors(page, /ERR_INTERNET_DISCONNECTED/);
    await page.route('**/api/user', (route) => route.abort('internetdisconnected'));
    await page.goto(`${server.baseUrl}/user`);
    await page.waitForURL('**/login', { timeout: 15_000 });
  });

  it('lets a user whose session ended elsewhere log in again from /login, instead of bouncing home', async () => {
    const email = 'ended-elsewhere@example.org';
    await registerUser(server.client(), email);
    const { page } = await newPage(browser);
    await logIn(page, server.baseUrl, email);
    await page.getByRole('button', { name: `Account menu for ${email}` }).waitFor();
    // The password is changed on another device: this browser's session is over.
    const other = server.client();
    await other.post('/api/login', { form: { email, password: strongPassword } });
    await other.post('/api/user/password', { json: { password: 'Chang3d!pass' } });
    // The tab still remembers the user; /login must wait for the server's word, not bounce home.
    // (The dead session's 401 is the spec's; it is logged once, here.)
    allowConsoleErrors(page, /status of 401/);
    await page.goto(`${server.baseUrl}/login`);
    await page.getByRole('heading', { name: 'Log in', level: 1 }).waitFor();
    expect(page.url()).toBe(`${server.baseUrl}/login`);
    await fillForm(page, { Email: email, Password: 'Chang3d!pass' });
    await page.locator('main').getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(`${server.baseUrl}/`);
    await page.getByRole('button', { name: `Account menu for ${email}` }).waitFor();
  });

  it("asks nothing about a guest's session: no GET /api/user, nothing in the console", async () => {
    const { page } = await newPage(browser, mobileViewport);
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/user') asked.push(request.url());
    });
    for (const path of ['/', '/browse', '/howitworks', '/about', '/contact', '/login', '/signup', '/support']) {
      await page.goto(`${server.baseUrl}${path}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
    }
    expect(asked).toEqual([]);
  });

  it('flags every empty field of the sign-up form, Confirm password included', async () => {
    const { page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/signup`);
    await page.getByRole('button', { name: 'Create account' }).click();
    for (const message of [
      'First name is required.',
      'Last name is required.',
      'Email is required.',
      'Password is required.',
      'Confirm password is required.',
    ]) {
      await page.getByText(message, { exact: true }).waitFor();
    }
  });

  it('edits the name, changes the email with a code from the new address, and deletes the account', async () => {
    const email = 'account-page@example.org';
    const newEmail = 'account-page-new@example.org';
    await registerUser(server.client(), email);
    const { page } = await newPage(browser, mobileViewport);
    await logIn(page, server.baseUrl, email);
    await page.goto(`${server.baseUrl}/user`);
    await page.getByRole('heading', { name: 'Account details' }).waitFor();

    await page.getByLabel('First name').fill('');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByText('First name is required.').waitFor();
    await fillForm(page, { 'First name': 'Nina', 'Last name': 'Simone' });
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByText('Your name has been saved.').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('soundcause-user'))).toContain('"firstName":"Nina"');

    // Provoked on purpose: the email change asked with a wrong password.
    allowConsoleErrors(page, /status of 400 .*\/api\/user\/email\)$/);
    await page.getByRole('button', { name: 'Change email address' }).click();
    await fillForm(page, { 'New email address': newEmail, 'Current password': 'Wrong!pass1' });
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByText('That password is not correct.').waitFor();
    await page.getByLabel('Current password').fill(strongPassword);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByText(`We sent a 6-digit code to ${newEmail}`).waitFor();
    const code = server.outbox.latestEmailChangeCode(newEmail);
    await page.getByLabel('Verification code').fill(code);
    await page.getByRole('button', { name: 'Confirm new address' }).click();
    await page.getByText(`Your email address is now ${newEmail}.`).waitFor();
    await page.getByText(newEmail, { exact: true }).waitFor();
    await page.screenshot({ path: path.join(os.tmpdir(), 'soundcause-account-390.png'), fullPage: true });

    await page.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await dialog.getByText('Password is required.').waitFor();
    await dialog.getByLabel('Your password').fill(strongPassword);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL(`${server.baseUrl}/`);
    await page.getByText('Your account has been deleted.').waitFor();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Log in' }).waitFor();
    expect(
      (await server.client().post('/api/login', { form: { email: newEmail, password: strongPassword } })).status,
    ).toBe(401);
  });
});
