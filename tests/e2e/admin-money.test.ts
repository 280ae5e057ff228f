import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  adminTransactionsSchema,
  initializeResponseSchema,
  type TransactionTotals,
} from '../../shared/answers/admin-money';
import { formatCents } from '../../shared/money';
import { donations } from '../../server/db/schema';
import { journalPayment } from '../../server/features/donations/payment-position';
import { recordCharge } from '../../server/features/journal/service';
import type { Fundraiser } from '../../shared/answers/fundraisers';
import { seriousViolations } from '../fixtures/axe';
import { mobileViewport } from '../fixtures/browser';
import { donate, insertSucceededDonations } from '../fixtures/donations';
import { allowConsoleErrors } from '../fixtures/console-errors';
import { fillForm, logIn, newContext, newPage, useAppAndBrowser } from '../fixtures/e2e-app';
import { CANCER_SOCIETY_EIN, createFundraiser, uploadMusic } from '../fixtures/fundraisers';
import { adminClient, type TestClient, type TestServer, verifiedUser } from '../fixtures/test-server';

// Admin money in Chromium (issue 11): an admin sees a donation arrive, disburses it through the
// giving site (whose page is answered here, so nothing leaves the machine), comes back to the
// callback page, and the charity's outstanding drops to $0.00; Complete / Cancel on a pending
// disbursement; a manual disbursement; non-admins are sent away; axe on every admin page.

let server: TestServer;
let browser: Browser;
let admin: TestClient;
let redCross: Fundraiser;
let cancerSociety: Fundraiser;
const ADMIN_EMAIL = 'money-admin@example.org';

useAppAndBrowser((startedServer, startedBrowser) => {
  server = startedServer;
  browser = startedBrowser;
});

beforeAll(async () => {
  admin = await adminClient(server, ADMIN_EMAIL);
  const owner = await verifiedUser(server, 'admin-money-owner@example.org');
  const uploads = await uploadMusic(owner, 1);
  redCross = await createFundraiser(owner, { publish: true, uploads, details: { name: 'Songs for Relief' } });
  cancerSociety = await createFundraiser(owner, {
    publish: true,
    uploads,
    charityEin: CANCER_SOCIETY_EIN,
    details: { name: 'Hope Songs' },
  });
});

async function adminPage(viewport = { width: 1280, height: 800 }) {
  const { page } = await newPage(browser, viewport);
  await logIn(page, server.baseUrl, ADMIN_EMAIL);
  return page;
}

/** The giving site's page, answered locally so nothing leaves the machine. */
async function interceptGivingSite(page: Page) {
  await page.route('https://www.every.org/**', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>Giving site</title><h1>Giving site</h1>',
    }),
  );
}

const row = (page: Page, charity: string) => page.getByRole('row').filter({ hasText: charity });

describe('admin money in Chromium', () => {
  it('sees a donation arrive, disburses it through the giving site and lands on the callback page', async () => {
    await donate(server, {
      fundraiserId: redCross.id,
      email: 'grace@example.org',
      name: 'Grace Hopper',
      donationCents: 2500,
      tipCents: 500,
    });
    const page = await adminPage();
    await page.goto(`${server.baseUrl}/admin/transactions`);
    const donation = row(page, 'Grace Hopper');
    await donation.getByText('$25.00').waitFor();
    await donation.getByRole('link', { name: 'Songs for Relief' }).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download all (CSV)' }).click();
    expect((await download).suggestedFilename()).toBe(`transactions-${new Date().toISOString().slice(0, 10)}.csv`);

    await page.getByRole('link', { name: 'Disbursements' }).click();
    const charity = row(page, 'American National Red Cross');
    const outstanding = (await charity.locator('.admin-outstanding').textContent())!;
    expect(outstanding).toMatch(/^\$2\d\.\d\d$/); // $25.00 less the Red Cross's share of the fee
    if (process.env.SHOT_DIR)
      await page.screenshot({ path: path.join(process.env.SHOT_DIR, 'admin-disbursements.png') });
    await interceptGivingSite(page);
    await charity.getByRole('button', { name: 'Disburse to American National Red Cross' }).click();
    const dialog = page.getByRole('dialog', { name: 'Disburse to American National Red Cross' });
    await dialog.getByText(outstanding).waitFor();
    await dialog.getByRole('button', { name: 'Continue to the giving site' }).click();
    await page.getByRole('heading', { name: 'Giving site' }).waitFor();

    // The address the admin was sent to, fragment and all (a request never carries the fragment).
    const link = new URL(page.url());
    expect(`${link.origin}${link.pathname}`).toBe('https://www.every.org/530196605');
    const query = new URLSearchParams(link.hash.split('?')[1]);
    expect(query.get('amount')).toBe(outstanding.replace('$', ''));
    expect(query.get('frequency')).toBe('ONCE');
    const back = new URL(query.get('success_url')!);
    expect(back.origin).toBe(server.baseUrl);
    expect(back.searchParams.get('disbursementId')).toBe(query.get('partner_donation_id'));

    await page.goto(back.toString());
    await page
      .getByRole('status')
      .getByText(/is complete\.$/)
      .waitFor();
    await page.getByRole('link', { name: 'Back to disbursements' }).click();
    await row(page, 'American National Red Cross').locator('.admin-outstanding').getByText('$0.00').waitFor();
    expect(
      await row(page, 'American National Red Cross')
        .getByRole('button', { name: /^Disburse/ })
        .isDisabled(),
    ).toBe(true);
    // The history opened with it: the disbursement, complete, through the giving site.
    const history = page.getByRole('region', { name: /History: American National Red Cross/ });
    await history.getByText('Complete', { exact: true }).waitFor();
    await history.getByText('www.every.org').waitFor();
    // Coming back a second time with the same link changes nothing (the server's 409 is the point).
    allowConsoleErrors(page, /status of 409 .*\/api\/admin\/disbursement\/\d+\/callback\)$/);
    await page.goto(back.toString());
    await page.getByRole('alert').getByText('This disbursement is no longer pending', { exact: false }).waitFor();

    // The public ledger shows it, reached from the fundraiser's charity block, with no donor in it.
    const { page: visitor } = await newPage(browser, mobileViewport);
    await visitor.goto(`${server.baseUrl}/projects/${redCross.urlSlug}`);
    await visitor.getByRole('link', { name: 'See where the money goes' }).click();
    await visitor.waitForURL('**/where-the-money-goes#ein-530196605');
    const ledgerRow = visitor.locator('#ein-530196605');
    await ledgerRow.getByText('American National Red Cross').waitFor();
    expect(await ledgerRow.getAttribute('class')).toContain('is-targeted');
    expect(await ledgerRow.locator('[data-label="Given by fans"]').textContent()).toContain('$25.00');
    expect(await ledgerRow.locator('[data-label="Paid to the charity"]').textContent()).toContain(outstanding);
    expect(await ledgerRow.locator('[data-label="Still to be paid"]').textContent()).toContain('$0.00');
    expect(await ledgerRow.locator('[data-label="Last payment"] time').count()).toBe(1);
    const ledgerText = (await visitor.locator('main').textContent()) ?? '';
    expect(ledgerText).not.toMatch(/Grace|grace@example\.org/);
    expect(await seriousViolations(visitor)).toEqual([]);
    expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    if (process.env.SHOT_DIR)
      await visitor.screenshot({ path: path.join(process.env.SHOT_DIR, 'ledger-390.png'), fullPage: true });
  });

  it('completes or cancels a pending disbursement by hand, once', async () => {
    await donate(server, { fundraiserId: cancerSociety.id, email: 'hope@example.org', donationCents: 4000 });
    const started = await admin.post('/api/admin/disbursement/initialize', {
      json: { ein: CANCER_SOCIETY_EIN, amountCents: 1000 },
    });
    const { disbursement } = initializeResponseSchema.parse(started.json);
    const page = await adminPage();
    // Recording money by hand meanwhile could pay the same money twice: the form says so.
    await page.goto(`${server.baseUrl}/admin/disbursements/new?ein=131788491`);
    const warning = page.getByRole('status').filter({ hasText: 'A disbursement is pending for this charity' });
    await warning.getByText('has not been completed, canceled or marked failed yet', { exact: false }).waitFor();
    expect(await warning.getByRole('link', { name: 'disbursement history' }).getAttribute('href')).toBe(
      '/admin/disbursements?ein=131788491',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${server.baseUrl}/admin/disbursements`);
    const charity = row(page, 'American Cancer Society');
    await charity.getByText('Pending').waitFor();
    expect(await charity.getByRole('button', { name: /^Disburse/ }).isDisabled()).toBe(true);
    await charity.getByRole('button', { name: 'History of American Cancer Society' }).click();
    const pending = page.getByRole('row').filter({ hasText: '$10.00' });
    await pending.getByRole('button', { name: 'Cancel' }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel this disbursement?' });
    await confirm.getByText('This cannot be undone.', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Cancel disbursement' }).click();
    await pending.getByText('Canceled').waitFor();
    expect(await pending.getByRole('button').count()).toBe(0);
    expect(
      (await admin.patch(`/api/admin/disbursement/${disbursement.id}`, { json: { status: 'COMPLETE' } })).status,
    ).toBe(409);
    expect(await charity.getByRole('button', { name: /^Disburse/ }).isDisabled()).toBe(false);
    // Nothing pending any more: no warning on the manual form.
    await page.goto(`${server.baseUrl}/admin/disbursements/new?ein=131788491`);
    await page.getByText(/Outstanding for American Cancer Society/).waitFor();
    expect(await page.getByText('A disbursement is pending for this charity').count()).toBe(0);
  });

  it('links the public ledger from the footer of every page', async () => {
    const { page } = await newPage(browser, mobileViewport);
    await page.goto(`${server.baseUrl}/about`);
    await page.locator('footer').getByRole('link', { name: 'Where the money goes' }).click();
    await page.waitForURL(`${server.baseUrl}/where-the-money-goes`);
    await page.getByRole('heading', { level: 1, name: 'Where the money goes' }).waitFor();
  });

  it('records a manual disbursement with the spec limits', async () => {
    // The charity has been given something, so the form can say what is outstanding.
    await donate(server, { fundraiserId: cancerSociety.id, email: 'manual-check@example.org', donationCents: 2000 });
    const page = await adminPage(mobileViewport);
    await page.goto(`${server.baseUrl}/admin/disbursements`);
    await page.getByRole('link', { name: 'Record a manual disbursement' }).click();
    await page.waitForURL('**/admin/disbursements/new');
    await page.getByRole('button', { name: 'Record disbursement' }).click();
    await page.getByText('Please enter a valid EIN (9 digits, like 12-3456789).').waitFor();
    await page.getByText('Amount must be at least $0.01').waitFor();
    await page.getByText('Charity name is required.').waitFor();
    await fillForm(page, { EIN: '131788491', Amount: '100000.01' });
    // The EIN names the charity from its record in the directory, which is what is recorded.
    const name = page.getByLabel('Charity name');
    await expect.poll(() => name.inputValue()).toBe('American Cancer Society');
    expect(await name.getAttribute('readonly')).not.toBeNull();
    await page.getByText(/Outstanding for American Cancer Society/).waitFor();
    await page.getByRole('button', { name: 'Record disbursement' }).click();
    await page.getByText('Amount cannot exceed $100,000.00').waitFor();
    // The shared schema's other messages (spec part 2 section 5), checked as the admin leaves a field.
    await fillForm(page, { Amount: 'twelve', Notes: 'n'.repeat(3001) });
    await page.getByLabel('EIN', { exact: true }).focus();
    await page.getByText('Amount must be an amount in dollars, like 250 or 250.00').waitFor();
    await page.getByText('Notes cannot exceed 3000 character(s).').waitFor();
    expect(await page.getByLabel('Notes').getAttribute('aria-invalid')).toBe('true');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // More than is outstanding asks first: Go back changes nothing, Record anyway records it. (The
    // server's refusal, a 400, is what makes the form ask.)
    allowConsoleErrors(page, /status of 400 .*\/api\/admin\/disbursements\)$/);
    await fillForm(page, { Amount: '99999', Notes: 'Bank transfer ahead of the gala' });
    await page.getByRole('button', { name: 'Record disbursement' }).click();
    const confirm = page.getByRole('dialog', { name: 'Record more than is outstanding?' });
    await confirm
      .getByText(/\$99,999\.00 is more than the \$[\d,.]+ outstanding for American Cancer Society/)
      .waitFor();
    await confirm.getByRole('button', { name: 'Go back' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(page.url()).toContain('/admin/disbursements/new');
    await fillForm(page, { Amount: '12.34', Notes: 'Cheque 1043' });
    await page.getByRole('button', { name: 'Record disbursement' }).click();
    const answered = await Promise.race([
      page.waitForURL('**/admin/disbursements?ein=131788491').then(() => 'recorded' as const),
      confirm.waitFor().then(() => 'asked' as const),
    ]);
    // Whether $12.34 is over what is outstanding depends on what this file's other tests gave.
    if (answered === 'asked') await confirm.getByRole('button', { name: 'Record anyway' }).click();
    await page.waitForURL('**/admin/disbursements?ein=131788491');
    await page.getByText('Recorded $12.34 paid to American Cancer Society.').waitFor();
    const history = page.getByRole('region', { name: /History: American Cancer Society/ });
    await history.getByText('Cheque 1043').waitFor();
    await history.getByText('Manual').waitFor();

    // Over what is outstanding, confirmed: recorded, and the history says so.
    await page.goto(`${server.baseUrl}/admin/disbursements/new?ein=131788491`);
    await expect.poll(() => page.getByLabel('Charity name').inputValue()).toBe('American Cancer Society');
    await fillForm(page, { Amount: '99999', Notes: 'Paid ahead' });
    await page.getByRole('button', { name: 'Record disbursement' }).click();
    await confirm.getByRole('button', { name: 'Record anyway' }).click();
    await page.waitForURL('**/admin/disbursements?ein=131788491');
    await history.getByText(/Confirmed over the \$[\d,.]+ outstanding/).waitFor();
    // The charity was paid more than it was given: overpaid, nothing owed.
    await page
      .getByRole('row', { name: /American Cancer Society/ })
      .getByText(/^Overpaid \$/)
      .waitFor();
  });

  it('tells an admin when the callback link is missing a part, and sends non-admins away', async () => {
    const page = await adminPage();
    await page.goto(`${server.baseUrl}/admin/disbursement-complete?action=markComplete&disbursementId=1`);
    await page.getByText('This page needs the action, callbackSecret and disbursementId', { exact: false }).waitFor();

    await verifiedUser(server, 'just-a-fan@example.org');
    const { page: fan } = await newPage(browser);
    await logIn(fan, server.baseUrl, 'just-a-fan@example.org');
    await fan.goto(`${server.baseUrl}/admin/disbursements`);
    await fan.waitForURL(`${server.baseUrl}/`);
  });

  it("dates money in the site's time zone (Los Angeles here), the same in Tokyo and New York", async () => {
    // 06:30 UTC on Nov 27 is 10:30 PM on Nov 26 in Los Angeles, and already Nov 27 in New York
    // and Tokyo; the payout at 07:45 UTC likewise. What a viewer's own zone says must not matter.
    const paidAt = Date.parse('2026-11-27T06:30:00Z');
    const payoutAt = Date.parse('2026-11-27T07:45:00Z');
    const owner = await verifiedUser(server, 'night-owl-owner@example.org');
    const unicef = await createFundraiser(owner, {
      publish: true,
      uploads: await uploadMusic(owner, 1),
      charityEin: '13-1760110',
      details: { name: 'Midnight Sessions' },
    });
    const intent = await donate(server, {
      fundraiserId: unicef.id,
      email: 'night-owl@example.org',
      name: 'Night Owl',
      donationCents: 1800,
    });
    server.sqlite
      .prepare('UPDATE donations SET succeeded_at = ?, created_at = ? WHERE payment_intent_id = ?')
      .run(paidAt, paidAt, intent.paymentIntentId);
    const manual = await admin.post('/api/admin/disbursements', {
      json: {
        ein: '131760110',
        amountCents: 900,
        notes: 'Late wire',
        charityName: 'UNICEF USA',
        finalizedAt: new Date(payoutAt).toISOString(),
      },
    });
    expect(manual.status, manual.text).toBe(201);
    server.sqlite.prepare("UPDATE disbursements SET created_at = ? WHERE notes = 'Late wire'").run(payoutAt);

    for (const timezoneId of ['Asia/Tokyo', 'America/New_York']) {
      const context = await newContext(browser, { viewport: { width: 1280, height: 800 }, timezoneId });
      const { page } = await newPage(context);
      // The browser really is elsewhere: its own calendar is on Nov 27 at that moment.
      expect(await page.evaluate((at) => new Date(at).getDate(), paidAt)).toBe(27);
      await logIn(page, server.baseUrl, ADMIN_EMAIL);

      await page.goto(`${server.baseUrl}/admin/transactions`);
      const payment = row(page, 'Night Owl');
      await payment.getByText('Nov 26, 2026').waitFor();
      await payment.getByText('10:30 PM PST').waitFor();
      expect(await payment.getByText('Nov 27, 2026').count(), timezoneId).toBe(0);

      await page.goto(`${server.baseUrl}/admin/disbursements?ein=131760110`);
      const payout = page.getByRole('row').filter({ hasText: 'Late wire' });
      // Started and finalized: both the evening of Nov 26 where the site is.
      await expect.poll(() => payout.getByText('Nov 26, 2026').count(), { message: timezoneId }).toBe(2);
      await payout.getByText('11:45 PM PST').waitFor();

      await page.goto(`${server.baseUrl}/where-the-money-goes`);
      const lastPayment = page.locator('#ein-131760110 [data-label="Last payment"]');
      await expect.poll(() => lastPayment.textContent(), { message: timezoneId }).toBe('Nov 26, 2026');
    }
  });

  it("shows each payment's fee ('fee pending' until it is known) and the sums of the page and of all, one row a payment at 1280 px and a card at 390 px", async () => {
    // Stripe has not told this one's fee yet (the fee job fills it in later): it counts at the
    // estimate meanwhile, the charge recorded as fulfilment records it with no fee reported.
    const unsettled = server.db
      .insert(donations)
      .values({
        fundraiserId: cancerSociety.id,
        paymentIntentId: 'pi_unsettled_e2e',
        provider: 'stripe',
        email: 'unsettled@example.org',
        name: 'Unsettled Fan',
        amountCents: 3300,
        tipCents: 700,
        charityEin: CANCER_SOCIETY_EIN.replace('-', ''),
        charityName: 'American Cancer Society',
        status: 'succeeded',
        succeededAt: new Date(),
      })
      .returning()
      .get();
    recordCharge(server.db, journalPayment(unsettled), null, new Date());
    // Twenty older payments: two pages, so the page's sums and everything's differ.
    insertSucceededDonations(server, redCross.id, 20);
    const listed = adminTransactionsSchema.parse((await admin.get('/api/admin/transactions')).json);
    expect(listed.totalCount).toBeGreaterThan(20);
    expect(listed.totals.all.feesPending).toBe(1);

    for (const viewport of [{ width: 1280, height: 800 }, mobileViewport]) {
      const page = await adminPage(viewport);
      await page.goto(`${server.baseUrl}/admin/transactions`);
      const unsettled = row(page, 'Unsettled Fan');
      await unsettled.getByText('fee pending').waitFor();
      await unsettled.getByText('$33.00').waitFor();
      // Every row has its fee in dollars; the one Stripe has not told is the estimate, flagged.
      const fees = await page.locator('tbody td[data-label="Fee"]').allTextContents();
      expect(fees.filter((fee) => fee === '$1.18fee pending')).toHaveLength(1);
      expect(fees.filter((fee) => /^\$\d+\.\d\d$/.test(fee))).toHaveLength(fees.length - 1);

      const sums = async (label: RegExp) => {
        const totals = page.locator('tfoot tr').filter({ has: page.getByRole('rowheader', { name: label }) });
        const cell = (name: string) => totals.locator(`td[data-label="${name}"]`).textContent();
        return [
          await cell('Donations'),
          await cell('Tips'),
          await cell('Fees'),
          await cell('Refunds'),
          await cell('Disputes'),
        ];
      };
      const shown = (totals: TransactionTotals) => [
        formatCents(totals.donationCents),
        formatCents(totals.tipCents),
        `${formatCents(totals.feeCents)}${totals.feesPending ? `${totals.feesPending} fee pending` : ''}`,
        formatCents(totals.refundedCents),
        formatCents(totals.disputedCents),
      ];
      expect(await sums(/^This page: 20 payments$/)).toEqual(shown(listed.totals.page));
      expect(await sums(new RegExp(`^All ${listed.totalCount} payments$`))).toEqual(shown(listed.totals.all));

      // Nothing scrolls sideways, in the page or in the table's own box, and nothing is cut off.
      const frame = page.locator('.admin-table-frame');
      expect(await frame.evaluate((box) => box.scrollWidth <= box.clientWidth)).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      const overflowing = await frame.evaluate((box) =>
        [...box.querySelectorAll('td, th')]
          .filter((cell) => cell.scrollWidth > cell.clientWidth + 1)
          .map((cell) => cell.textContent),
      );
      expect(overflowing).toEqual([]);
      if (process.env.SHOT_DIR)
        await page.screenshot({
          path: path.join(process.env.SHOT_DIR, `admin-transactions-totals-${viewport.width}.png`),
          fullPage: true,
        });
    }
  });

  for (const viewport of [{ width: 1280, height: 800 }, mobileViewport]) {
    it(`has no serious axe violations on the admin money pages and the ledger (${viewport.width} px)`, async () => {
      const page = await adminPage(viewport);
      for (const address of [
        '/admin/transactions',
        '/admin/disbursements?ein=530196605',
        '/admin/featured-fundraisers',
        '/admin/disbursements/new',
        '/admin/disbursement-complete',
        '/where-the-money-goes',
      ]) {
        await page.goto(`${server.baseUrl}${address}`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await expect.poll(() => page.locator('.spinner-wrap').count()).toBe(0);
        expect(await seriousViolations(page), address).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), address).toBeLessThanOrEqual(
          viewport.width,
        );
        if (process.env.SHOT_DIR) {
          const name = address.replace(/[/?=]+/g, '-').replace(/^-/, '');
          await page.screenshot({
            path: path.join(process.env.SHOT_DIR, `${name}-${viewport.width}.png`),
            fullPage: true,
          });
        }
      }
    });
  }
});
