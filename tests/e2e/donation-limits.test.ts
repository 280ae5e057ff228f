import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_CARDS } from '../../shared/donation-rules';
import type { Fundraiser } from '../../shared/answers/fundraisers';
import { allowConsoleErrors } from '../fixtures/console-errors';
import { payWithTestCard, startDonation } from '../fixtures/donations';
import { fillForm, newPage, useAppAndBrowser } from '../fixtures/e2e-app';
import { createFundraiser } from '../fixtures/fundraisers';
import { type TestServer, verifiedUser } from '../fixtures/test-server';

// What a donor sees past the payment limits (issue 22, server/features/donations/throttles.ts):
// the server's words, saying when to try again, where the donate flow shows its errors.

let server: TestServer;
let browser: Browser;
let album: Fundraiser;
useAppAndBrowser((startedServer, startedBrowser) => {
  server = startedServer;
  browser = startedBrowser;
});

beforeAll(async () => {
  const owner = await verifiedUser(server, 'limits-owner@example.org');
  album = await createFundraiser(owner, { publish: true, tracks: 1 });
});

async function toCardForm(page: Page, email: string) {
  await page.goto(`${server.baseUrl}/projects/${album.urlSlug}/donate`);
  await fillForm(page, { Name: 'June Carter', Email: email, Donation: '10' });
  await page.getByRole('button', { name: 'No tip' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
}

describe('the donate flow past the payment limits', () => {
  it('says when to try again once an email has had too many cards declined', async () => {
    const email = 'card-tester@example.org';
    for (let n = 0; n < 5; n++) {
      const intent = await startDonation(server, { fundraiserId: album.id, email });
      expect((await payWithTestCard(server, intent.clientSecret, TEST_CARDS.declined)).status).toBe(402);
    }
    const { page } = await newPage(browser);
    allowConsoleErrors(page, /status of 429 .*\/api\/test-payments\/confirm\)$/);
    await toCardForm(page, email);
    await fillForm(page, { 'Card number': TEST_CARDS.succeeds, Expiry: '1234', CVC: '123' });
    // The Pay button, whatever it says after "Pay".
    await page.getByRole('button', { name: /^Pay\b/ }).click();
    await page
      .getByRole('alert')
      .getByText(/^Too many declined payments\. Please try again in (59|60) minutes\.$/)
      .waitFor();
  });

  it('says when to try again once an email has started too many payments', async () => {
    const email = 'back-and-forth@example.org';
    for (let n = 0; n < 10; n++) await startDonation(server, { fundraiserId: album.id, email });
    const { page } = await newPage(browser);
    allowConsoleErrors(page, /status of 429 .*\/api\/transactions\/create-payment-intent\)$/);
    await toCardForm(page, email);
    await page
      .getByRole('alert')
      .getByText(/^Too many payment attempts\. Please try again in (59|60) minutes\.$/)
      .waitFor();
  });
});
