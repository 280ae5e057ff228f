import type { Browser, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { mobileViewport } from '../fixtures/browser';
import { fillForm, newPage, useAppAndBrowser } from '../fixtures/e2e-app';
import { createFundraiser } from '../fixtures/fundraisers';
import { futureExpiry } from '../fixtures/test-cards';
import { type TestServer, verifiedUser } from '../fixtures/test-server';
import { TEST_CARDS } from '../../shared/donation-rules';
import type { Fundraiser } from '../../shared/answers/fundraisers';

// The donate page in Chromium (issue 22): amounts with a decimal comma, a tip above the donation
// asked about in a dialog, the total on the Pay button at every width, the test card checked as
// Stripe checks it, and a second donation from the same email on the same day asked about first.

let server: TestServer;
let browser: Browser;
let album: Fundraiser;
let otherAlbum: Fundraiser;
useAppAndBrowser((startedServer, startedBrowser) => {
  server = startedServer;
  browser = startedBrowser;
});

beforeAll(async () => {
  const owner = await verifiedUser(server, 'donate-page-owner@example.org');
  // The fixtures' minimum is $5.00.
  album = await createFundraiser(owner, { details: { name: 'Harbour Lights' }, publish: true, tracks: 1 });
  otherAlbum = await createFundraiser(owner, { details: { name: 'Second Album' }, publish: true, tracks: 1 });
});

const summaryOf = (page: Page) => page.getByRole('complementary', { name: 'Summary' });
const donation = (page: Page) => page.getByLabel('Donation', { exact: true });
const payButton = (page: Page) => page.getByRole('button', { name: /^Pay \$/ });

async function openDonatePage(page: Page, fundraiser: Fundraiser = album) {
  await page.goto(`${server.baseUrl}/projects/${fundraiser.urlSlug}/donate`);
  await page.getByRole('heading', { level: 1, name: 'Donate to a fundraiser' }).waitFor();
}

/** Step 0 filled in with no tip, then Next. */
async function giveAndGoOn(page: Page, email: string, amount: string) {
  await fillForm(page, { Name: 'June Carter', Email: email, Donation: amount });
  await page.getByRole('button', { name: 'No tip' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
}

async function payWithGoodCard(page: Page) {
  await fillForm(page, { 'Card number': TEST_CARDS.succeeds, Expiry: futureExpiry(), CVC: '123' });
  await payButton(page).click();
  await page.getByRole('heading', { level: 1, name: 'Thank you!' }).waitFor();
}

/** A dialog's accessible description: what a screen reader says after its title. */
async function descriptionOf(dialog: Locator) {
  return dialog.evaluate((element) => {
    const ids = element.getAttribute('aria-describedby')?.split(' ') ?? [];
    return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
  });
}

/** The error shown at a field, as its aria-describedby names it. */
async function errorAt(field: Locator) {
  return field.evaluate((element) => {
    const ids = element.getAttribute('aria-describedby')?.split(' ') ?? [];
    return ids
      .map((id) => document.getElementById(id))
      .filter((node) => node?.classList.contains('field-error'))
      .map((node) => node!.textContent)
      .join(' ');
  });
}

describe('the donate page', () => {
  it('reads a decimal comma as decimals and refuses an amount that reads two ways', async () => {
    const { page } = await newPage(browser);
    await openDonatePage(page);
    await donation(page).fill('12,50');
    await page.getByRole('button', { name: 'Custom' }).click();
    await page.getByLabel('Custom tip').fill('1,5');
    expect(await summaryOf(page).innerText()).toMatch(/Donation\s+\$12\.50\s+Tip\s+\$1\.50\s+Total\s+\$14\.00/);
    await donation(page).fill('1.250,00');
    expect(await summaryOf(page).innerText()).toMatch(/Donation\s+\$1,250\.00/);

    // "1,250" is a thousand to an American and one and a quarter to a German: neither is guessed.
    await donation(page).fill('1,250');
    await page.getByLabel('Custom tip').fill('12,505');
    await fillForm(page, { Name: 'June Carter', Email: 'comma@example.org' });
    await page.getByRole('button', { name: 'Next' }).click();
    expect(await errorAt(donation(page))).toBe('Donation must be an amount in dollars, like 25 or 25.00');
    await page.getByText('Tip must be an amount in dollars, like 25 or 25.00').waitFor();
    expect(await page.getByRole('heading', { name: 'Payment' }).count()).toBe(0);

    // The tip rules hold as before: presets wait for a donation, typing one clears the preset.
    await donation(page).fill('');
    expect(await page.getByRole('button', { name: '10%' }).isDisabled()).toBe(true);
    await donation(page).fill('12,34');
    await page.getByRole('button', { name: '10%' }).click();
    expect(await summaryOf(page).innerText()).toMatch(/Tip\s+\$1\.23\s+Total\s+\$13\.57/);
    await donation(page).fill('12,35');
    expect(await page.getByRole('button', { name: '10%' }).getAttribute('aria-pressed')).toBe('false');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Please choose a tip amount (can be zero)').waitFor();
    await page.getByText('Must be $5.00 or more').waitFor();
    await page.getByRole('button', { name: 'No tip' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Payment' }).waitFor();
    expect(await summaryOf(page).innerText()).toMatch(/Total\s+\$12\.35/);
  });

  it('draws the form without the schema library, and checks it with the shared schema at the first Next', async () => {
    const { page } = await newPage(browser, mobileViewport);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    // zod's chunks by name: the schemas and its parser (issue 24: a fifth of the page's first load).
    const zod = /\/assets\/(schemas|parse)-/;
    await openDonatePage(page);
    await donation(page).waitFor();
    await page.waitForTimeout(1500);
    expect(scripts.filter((script) => zod.test(script))).toEqual([]);

    // Next at once: the check loads what it needs, then says what the server would.
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Name is required.').waitFor();
    await page.getByText('Email is required.').waitFor();
    await page.getByText('Please choose a tip amount (can be zero)').waitFor();
    expect(scripts.some((script) => zod.test(script))).toBe(true);
    await fillForm(page, { Name: 'June Carter', Email: 'first-next@example.org', Donation: '7' });
    await page.getByRole('button', { name: 'No tip' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Payment' }).waitFor();
    await page.getByLabel('Card number').waitFor();
    expect(await summaryOf(page).innerText()).toMatch(/Total\s+\$7\.00/);
  });

  it('asks before paying a custom tip above the donation: Change goes back to the tip, Keep goes on', async () => {
    const { page } = await newPage(browser);
    await openDonatePage(page);
    await fillForm(page, { Name: 'June Carter', Email: 'big-tip@example.org', Donation: '12' });
    await page.getByRole('button', { name: 'Custom' }).click();
    await page.getByLabel('Custom tip').fill('999');
    await page.getByRole('button', { name: 'Next' }).click();

    const dialog = page.getByRole('dialog', { name: 'Keep this tip?' });
    await dialog.waitFor();
    expect(await descriptionOf(dialog)).toBe('Your tip to Soundcause is $999.00 — more than your donation. Keep it?');
    await dialog.getByRole('button', { name: 'Change tip' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('tipCents');
    expect(await page.getByRole('heading', { name: 'Payment' }).count()).toBe(0);

    // Escape is the safe choice too; a tip no larger than the donation is not asked about.
    await page.getByRole('button', { name: 'Next' }).click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Next' }).click();
    await dialog.getByRole('button', { name: 'Keep tip' }).click();
    await page.getByRole('heading', { name: 'Payment' }).waitFor();
    expect(await payButton(page).innerText()).toBe('Pay $1,011.00');

    await page.getByRole('button', { name: 'edit' }).click();
    // The payment step and its 'edit' are gone: the keyboard starts again at the form's heading.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Your donation');
    await page.getByLabel('Custom tip').fill('12');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Payment' }).waitFor();
    expect(await payButton(page).innerText()).toBe('Pay $24.00');
  });

  for (const viewport of [{ width: 1280, height: 800 }, mobileViewport]) {
    it(`shows the total on the Pay button, on one line inside the page (${viewport.width} px)`, async () => {
      const { page } = await newPage(browser, viewport);
      await openDonatePage(page);
      await fillForm(page, { Name: 'June Carter', Email: `pay-label-${viewport.width}@example.org`, Donation: '12' });
      await page.getByRole('button', { name: '20%' }).click();
      await page.getByRole('button', { name: 'Next' }).click();
      const button = payButton(page);
      await button.waitFor();
      expect(await button.innerText()).toBe('Pay $14.40');
      const fits = await button.evaluate((element) => {
        const box = element.getBoundingClientRect();
        const lineHeight = parseFloat(getComputedStyle(element).lineHeight);
        const range = document.createRange();
        range.selectNodeContents(element);
        return {
          lines: new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size,
          clipped: element.scrollWidth > element.clientWidth,
          inside: box.left >= 0 && box.right <= window.innerWidth,
          oneLineTall: box.height < lineHeight * 2,
        };
      });
      expect(fits).toEqual({ lines: 1, clipped: false, inside: true, oneLineTall: true });
    });
  }

  it("checks the card as Stripe does, in Stripe's words at each field, and pays with a good one", async () => {
    const { page } = await newPage(browser, mobileViewport);
    await openDonatePage(page);
    await giveAndGoOn(page, 'card-typos@example.org', '10');
    const number = page.getByLabel('Card number');
    const expiry = page.getByLabel('Expiry');
    const cvc = page.getByLabel('CVC');
    await payButton(page).click();
    expect(await errorAt(number)).toBe('Your card number is incomplete.');
    expect(await errorAt(expiry)).toBe("Your card's expiration date is incomplete.");
    expect(await errorAt(cvc)).toBe("Your card's security code is incomplete.");

    await number.fill('4242 4242 4242 4241');
    const now = new Date();
    await expiry.fill(`01/${String((now.getUTCFullYear() - 2) % 100).padStart(2, '0')}`);
    await cvc.fill('12');
    await expect.poll(() => errorAt(number)).toBe('Your card number is invalid.');
    await expect.poll(() => errorAt(expiry)).toBe("Your card's expiration year is in the past.");
    expect(await errorAt(cvc)).toBe("Your card's security code is incomplete.");
    // Typed into, each field says at once when it is right.
    await number.fill('4242424242424242');
    expect(await number.inputValue()).toBe('4242 4242 4242 4242');
    await expect.poll(() => errorAt(number)).toBe('');
    // This month's card is still good.
    await expiry.fill(`${String(now.getMonth() + 1).padStart(2, '0')}/${String(now.getFullYear() % 100)}`);
    await expect.poll(() => errorAt(expiry)).toBe('');
    await cvc.fill('123');
    await expect.poll(() => errorAt(cvc)).toBe('');
    await payButton(page).click();
    await page.getByRole('heading', { level: 1, name: 'Thank you!' }).waitFor();
  });

  it('asks before a second donation from the same email to the same fundraiser today, naming the latest', async () => {
    const { page } = await newPage(browser);
    await openDonatePage(page);
    await giveAndGoOn(page, 'twice@example.org', '12');
    await payWithGoodCard(page);

    // Back from the thanks, the same donor again (the address typed differently).
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Donate to a fundraiser' }).waitFor();
    await giveAndGoOn(page, ' Twice@Example.org ', '15');
    const dialog = page.getByRole('dialog', { name: 'Donated today' });
    await dialog.waitFor();
    expect(await descriptionOf(dialog)).toBe('You donated $12.00 to this fundraiser today. Donate again?');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.getByRole('heading', { name: 'Payment' }).count()).toBe(0);

    // Another address is another donor: no question.
    await page.getByLabel('Email', { exact: true }).fill('someone-else@example.org');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Payment' }).waitFor();
    expect(await dialog.count()).toBe(0);

    // The donor may give again; the next question names the latest donation.
    await page.getByRole('button', { name: 'edit' }).click();
    await page.getByLabel('Email', { exact: true }).fill('twice@example.org');
    await page.getByRole('button', { name: 'Next' }).click();
    await dialog.getByRole('button', { name: 'Donate again' }).click();
    await page.getByRole('heading', { name: 'Payment' }).waitFor();
    expect(await payButton(page).innerText()).toBe('Pay $15.00');
    await payWithGoodCard(page);
    await openDonatePage(page);
    await giveAndGoOn(page, 'twice@example.org', '20');
    expect(await descriptionOf(dialog)).toBe('You donated $15.00 to this fundraiser today. Donate again?');

    // Another fundraiser, same address: no question.
    await openDonatePage(page, otherAlbum);
    await giveAndGoOn(page, 'twice@example.org', '12');
    await page.getByRole('heading', { name: 'Payment' }).waitFor();
    expect(await dialog.count()).toBe(0);
  });
});
