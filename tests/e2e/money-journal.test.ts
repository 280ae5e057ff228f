import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { disbursements, donations } from '../../server/db/schema';
import { handlePaymentEvent } from '../../server/features/donations/after-sale';
import { journalPayment } from '../../server/features/donations/payment-position';
import { recordCharge } from '../../server/features/journal/service';
import { initializeResponseSchema } from '../../shared/answers/admin-money';
import { formatCents } from '../../shared/money';
import { seriousViolations } from '../fixtures/axe';
import { mobileViewport } from '../fixtures/browser';
import { donate } from '../fixtures/donations';
import { logIn, newPage, useAppAndBrowser } from '../fixtures/e2e-app';
import { CANCER_SOCIETY_EIN, createFundraiser, uploadMusic } from '../fixtures/fundraisers';
import { adminClient, type TestClient, type TestServer, verifiedUser } from '../fixtures/test-server';

// The money journal in Chromium (issue 23): an admin sees what became of each payment (a dispute
// open, a refund), a fee never reported and asks again, a charity overpaid before a refund, a
// disbursement pending for more than a day and marks it failed, and the reconciliation with the
// payment processor's records, differences first; the public ledger keeps an overpayment apart.
// What the processor reports is handed to the server as its webhook would (handlePaymentEvent).

let server: TestServer;
let browser: Browser;
let admin: TestClient;
const ADMIN_EMAIL = 'journal-admin@example.org';
const CANCER_SOCIETY = CANCER_SOCIETY_EIN.replace('-', '');
let overpaidCents = 0;

useAppAndBrowser((startedServer, startedBrowser) => {
  server = startedServer;
  browser = startedBrowser;
});

function donationOf(paymentIntentId: string) {
  return server.db.select().from(donations).where(eq(donations.paymentIntentId, paymentIntentId)).get()!;
}

beforeAll(async () => {
  admin = await adminClient(server, ADMIN_EMAIL);
  const owner = await verifiedUser(server, 'journal-owner@example.org');
  const uploads = await uploadMusic(owner, 1);
  const relief = await createFundraiser(owner, { publish: true, uploads, details: { name: 'Songs for Relief' } });
  const hope = await createFundraiser(owner, {
    publish: true,
    uploads,
    charityEin: CANCER_SOCIETY_EIN,
    details: { name: 'Hope Songs' },
  });

  // A payment disputed by the card holder's bank, still open.
  const disputed = await donate(server, {
    fundraiserId: relief.id,
    email: 'disputed@example.org',
    name: 'Dee Sputed',
    donationCents: 3000,
  });
  await handlePaymentEvent(
    server.deps,
    {
      id: 'evt_dispute_e2e',
      type: 'dispute',
      paymentIntentId: disputed.paymentIntentId,
      dispute: { id: 'dp_e2e_open', amountCents: 3000, feeCents: 1500, outcome: 'open' },
    },
    server.baseUrl,
  );

  // Hope Songs' charity is paid all it is owed, and then the payment is refunded: overpaid.
  const refunded = await donate(server, {
    fundraiserId: hope.id,
    email: 'refunded@example.org',
    name: 'Ray Funded',
    donationCents: 4000,
  });
  const owed = (await admin.get('/api/admin/disbursements')).json as {
    results: { ein: string; outstandingCents: number }[];
  };
  const outstanding = owed.results.find((charity) => charity.ein === CANCER_SOCIETY)!.outstandingCents;
  const paidOut = await admin.post('/api/admin/disbursements', {
    json: { ein: CANCER_SOCIETY, amountCents: outstanding, notes: 'Wire', charityName: 'x', finalizedAt: '2026-11-20' },
  });
  expect(paidOut.status, paidOut.text).toBe(201);
  await handlePaymentEvent(
    server.deps,
    {
      id: 'evt_refund_e2e',
      type: 'refunds',
      paymentIntentId: refunded.paymentIntentId,
      refunds: [{ id: 're_e2e_full', amountCents: 4000, status: 'succeeded' }],
    },
    server.baseUrl,
  );
  overpaidCents = outstanding;

  // A payment whose fee the processor never reported: the fee job gave up on it.
  const unreported = server.db
    .insert(donations)
    .values({
      fundraiserId: relief.id,
      paymentIntentId: 'pi_fee_never_told',
      provider: 'test',
      email: 'late-fee@example.org',
      name: 'Lana Tefee',
      amountCents: 2500,
      tipCents: 0,
      charityEin: '530196605',
      charityName: 'American National Red Cross',
      status: 'succeeded',
      succeededAt: new Date(),
      feeUnreportedAt: new Date(),
    })
    .returning()
    .get();
  recordCharge(server.db, journalPayment(unreported), null, new Date());

  // A disbursement to the Red Cross started 30 hours ago, never back from the giving site.
  await donate(server, { fundraiserId: relief.id, email: 'owed@example.org', donationCents: 9000 });
  const started = initializeResponseSchema.parse(
    (await admin.post('/api/admin/disbursement/initialize', { json: { ein: '530196605', amountCents: 1000 } })).json,
  );
  server.db
    .update(disbursements)
    .set({ createdAt: new Date(Date.now() - 30 * 60 * 60 * 1000) })
    .where(eq(disbursements.id, started.disbursement.id))
    .run();
  expect(donationOf(disputed.paymentIntentId).status).toBe('succeeded');
});

async function adminPage(viewport = { width: 1280, height: 800 }) {
  const { page } = await newPage(browser, viewport);
  await logIn(page, server.baseUrl, ADMIN_EMAIL);
  return page;
}

async function settled(page: Page) {
  await page.getByRole('heading', { level: 1 }).waitFor();
  await expect.poll(() => page.locator('.spinner-wrap').count()).toBe(0);
}

async function shot(page: Page, name: string, width: number) {
  if (process.env.SHOT_DIR) {
    await page.screenshot({ path: path.join(process.env.SHOT_DIR, `journal-${name}-${width}.png`), fullPage: true });
  }
}

describe('the money journal in Chromium', () => {
  for (const viewport of [{ width: 1280, height: 800 }, mobileViewport]) {
    it(`shows what became of each payment, and the charities' balances, at ${viewport.width} px`, async () => {
      const page = await adminPage(viewport);
      await page.goto(`${server.baseUrl}/admin/transactions`);
      await settled(page);
      const row = (name: string) => page.getByRole('row').filter({ hasText: name });
      await row('Dee Sputed').getByText('Disputed', { exact: true }).waitFor();
      expect(await row('Dee Sputed').locator('td[data-label="Disputed"]').textContent()).toBe('$30.00');
      await row('Ray Funded').getByText('Refunded', { exact: true }).waitFor();
      await row('Lana Tefee').getByText('never reported').waitFor();
      await page.getByText("Stripe never reported one payment's fee").waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await shot(page, 'transactions', viewport.width);

      await page.goto(`${server.baseUrl}/admin/disbursements`);
      await settled(page);
      const hope = page.getByRole('row').filter({ hasText: 'American Cancer Society' });
      await hope.getByText(`Overpaid ${formatCents(overpaidCents)}`).waitFor();
      const relief = page.getByRole('row').filter({ hasText: 'American National Red Cross' });
      await relief.getByText('Stale: pending 30 hours').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await shot(page, 'disbursements', viewport.width);

      // The public ledger: what is still to be paid is what charities are owed, the overpayment apart.
      await page.goto(`${server.baseUrl}/where-the-money-goes`);
      await settled(page);
      await page.getByText('Paid before a refund', { exact: true }).waitFor();
      await page
        .locator('#ein-131788491')
        .getByText(`Paid ${formatCents(overpaidCents)} before a refund`)
        .waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, 'ledger', viewport.width);
    });
  }

  it('compares with the payment processor, differences first, for the period asked', async () => {
    for (const viewport of [{ width: 1280, height: 800 }, mobileViewport]) {
      const page = await adminPage(viewport);
      await page.goto(`${server.baseUrl}/admin/reconciliation`);
      await settled(page);
      // The test provider never saw the dispute nor the payment recorded straight into the
      // database: those differ; the payments made through it agree.
      await page.getByText(/^\d+ differences with the test provider's records$/).waitFor();
      const table = page.getByRole('region', { name: 'Reconciliation' });
      await table.getByRole('row').filter({ hasText: 'dp_e2e_open' }).first().waitFor();
      await table.getByRole('row').filter({ hasText: 'pi_fee_never_told' }).first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await shot(page, 'reconciliation', viewport.width);
      const csv = await page.getByRole('link', { name: 'Download differences (CSV)' }).getAttribute('href');
      expect(csv).toMatch(/^\/api\/admin\/reconciliation\.csv\?from=\d{4}-\d\d-\d\d&to=\d{4}-\d\d-\d\d$/);

      // A month long before any of it: nothing moved. A backwards period is refused in words.
      await page.getByLabel('From', { exact: true }).fill('2025-01-01');
      await page.getByLabel('To', { exact: true }).fill('2024-12-01');
      await page.getByRole('button', { name: 'Compare' }).click();
      await page.getByText('The end date cannot be before the start date.').waitFor();
      await page.getByLabel('To', { exact: true }).fill('2025-01-31');
      await page.getByRole('button', { name: 'Compare' }).click();
      await page.waitForURL(/from=2025-01-01&to=2025-01-31/);
      await page.getByText('No money moved from 2025-01-01 to 2025-01-31', { exact: false }).waitFor();
    }
  });

  it('asks Stripe again for a fee never reported, and marks a stale disbursement failed', async () => {
    const page = await adminPage();
    await page.goto(`${server.baseUrl}/admin/transactions`);
    await page.getByRole('button', { name: 'Ask Stripe again' }).click();
    await page.getByText("Asking Stripe again for 1 payment's fee.", { exact: false }).waitFor();
    expect(donationOf('pi_fee_never_told').feeUnreportedAt).toBeNull();

    await page.goto(`${server.baseUrl}/admin/disbursements`);
    const relief = page.getByRole('row').filter({ hasText: 'American National Red Cross' });
    await relief.getByRole('button', { name: 'History of American National Red Cross' }).click();
    const pending = page.getByRole('row').filter({ hasText: 'Stale: pending 30 hours' });
    await pending.getByRole('button', { name: 'Mark failed' }).click();
    const confirm = page.getByRole('dialog', { name: 'Mark this disbursement failed?' });
    await confirm.getByText('it goes back to outstanding', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Mark failed' }).click();
    await confirm.waitFor({ state: 'detached' });
    const history = page.getByRole('region', { name: /History: American National Red Cross/ });
    await history.getByText('Failed', { exact: true }).waitFor();
    // Nothing pending any more: the charity can be paid again.
    await expect.poll(() => relief.getByText(/Stale|Pending/).count()).toBe(0);
    expect(await relief.getByRole('button', { name: 'Disburse to American National Red Cross' }).isDisabled()).toBe(
      false,
    );
  });
});
