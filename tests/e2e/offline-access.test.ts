import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { handlePaymentEvent } from '../../server/features/donations/after-sale';
import { allowConsoleErrors } from '../fixtures/console-errors';
import { donate } from '../fixtures/donations';
import { fillForm, logIn, useAppAndBrowser } from '../fixtures/e2e-app';
import { createFundraiser, uploadListenableMusic } from '../fixtures/fundraisers';
import { controlledPage, gate, goOffline, savedAlbumIds, savedBytes, storeRows } from '../fixtures/offline';
import { strongPassword, type TestServer, verifiedUser } from '../fixtures/test-server';

// Whose saved music it is, and when it leaves the device (issue 12). Only the server's word takes
// it away: a session ended elsewhere (a password changed on another device) keeps it, a refund
// removes it at the next sync. On a shared device the service worker serves it to the account
// that saved it and nobody else; logging out asks whether to keep it. A saved album's page opens
// from the device when the network does not answer ('lie-fi').

let server: TestServer;
const ownerEmail = 'offline-artist@example.org';
const fanEmail = 'offline-buyer@example.org';
const otherEmail = 'offline-other@example.org';
type Album = { id: number; slug: string; name: string };
let bought: Album;
let paymentIntentId = '';

useAppAndBrowser((started) => {
  server = started;
});

beforeAll(async () => {
  const owner = await verifiedUser(server, ownerEmail);
  const created = await createFundraiser(owner, {
    details: { name: 'Bought Songs' },
    uploads: await uploadListenableMusic(owner, [4, 3]),
    publish: true,
  });
  bought = { id: created.id, slug: created.urlSlug!, name: 'Bought Songs' };
  await server.jobs.drain();
  await verifiedUser(server, fanEmail);
  await verifiedUser(server, otherEmail);
  ({ paymentIntentId } = await donate(server, { fundraiserId: bought.id, email: fanEmail }));
});

const SAVED = /^\s*Saved for offline\b/;

/**
 * Saves `album` on the device, and waits for the store's sync (which starts in a quiet moment
 * after the click) to have checked it with the server, so no check of this page's is still on its
 * way when the test goes on.
 */
async function saveAlbum(page: Page, album: Album) {
  await page.goto(`${server.baseUrl}/music/album/${album.slug}`);
  const checked = page.waitForResponse(
    (response) => new URL(response.url()).pathname === `/api/music-library/album/${album.id}`,
  );
  await page.getByRole('button', { name: 'Save for offline' }).click();
  await page.getByText(SAVED).waitFor({ timeout: 30_000 });
  await checked;
}

async function logOutFromMenu(page: Page) {
  await page.getByRole('button', { name: /account menu/i }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
}

describe('whose saved music it is', () => {
  it('keeps saved music when the session ends elsewhere, and removes it at the next sync after a refund', async () => {
    const { page, context, close } = await controlledPage(server.baseUrl, fanEmail);
    try {
      await saveAlbum(page, bought);
      const bytes = await savedBytes(page);
      expect(bytes).toBeGreaterThan(10_000);

      // The password is changed on another device: this browser's session ends on the server,
      // its cookies and the user it remembers stay.
      const elsewhere = server.client();
      expect((await elsewhere.post('/api/login', { form: { email: fanEmail, password: strongPassword } })).status).toBe(
        200,
      );
      expect((await elsewhere.post('/api/user/password', { json: { password: strongPassword } })).status).toBe(200);

      // A slow answer to "who am I": the page starts on the remembered user meanwhile.
      const albumChecks: string[] = [];
      context.on('request', (request) => {
        if (/\/api\/music-library\/album\//.test(request.url())) albumChecks.push(request.url());
      });
      await context.route('**/api/user', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue().catch(() => undefined); // a request the page dropped meanwhile
      });
      allowConsoleErrors(page, /status of 401 .*\/api\/user\)$/);
      await page.goto(`${server.baseUrl}/music/albums/saved`);
      // The server says the session is over: the login page, and the music still on the device.
      await page.waitForURL(/\/login/);
      await page.locator('main').getByRole('button', { name: 'Log in', exact: true }).waitFor();
      await context.unroute('**/api/user');
      expect(albumChecks).toEqual([]);
      expect(await savedBytes(page)).toBe(bytes);
      expect(await savedAlbumIds(page)).toEqual([bought.id]);

      // Logged in again (back to the page it was on), the sync asks the server: still theirs, still saved.
      await fillForm(page, { Email: fanEmail, Password: strongPassword });
      await page.locator('main').getByRole('button', { name: 'Log in', exact: true }).click();
      await page.getByRole('link', { name: bought.name }).waitFor();
      await expect.poll(() => albumChecks.length).toBeGreaterThan(0);
      expect(await savedBytes(page)).toBe(bytes);

      // The donation is refunded (the payment provider's event, handled as the webhook does).
      const { paid } = server.sqlite
        .prepare('SELECT amount_cents + tip_cents AS paid FROM donations WHERE payment_intent_id = ?')
        .get(paymentIntentId) as { paid: number };
      await handlePaymentEvent(
        server.deps,
        {
          id: `evt_refund_${paymentIntentId}`,
          type: 'refunds',
          paymentIntentId,
          refunds: [{ id: `re_${paymentIntentId}`, amountCents: paid, status: 'succeeded' }],
        },
        server.baseUrl,
      );
      allowConsoleErrors(page, new RegExp(`status of 404 .*/api/music-library/album/${bought.id}\\)$`));
      await page.reload();
      await page.getByText('No music saved on this device yet.', { exact: false }).waitFor();
      expect(await savedBytes(page)).toBe(0);
      expect(await storeRows(page, 'tracks')).toEqual([]);
    } finally {
      await close();
    }
  });

  it('serves saved music only to the account that saved it, keeps it at logout if asked, removes it if asked', async () => {
    const { page, context, close } = await controlledPage(server.baseUrl, ownerEmail);
    try {
      await saveAlbum(page, bought);
      const bytes = await savedBytes(page);
      const [track] = await storeRows<{ src: string }>(page, 'tracks');

      await logOutFromMenu(page);
      await page.getByRole('dialog', { name: 'Keep your saved music on this device?' }).waitFor();
      await page.getByRole('button', { name: 'Keep and log out' }).click();
      await page.waitForURL(`${server.baseUrl}/`);
      expect(await savedBytes(page)).toBe(bytes);

      // Someone else logs in on this device: none of it is theirs, online or off.
      await logIn(page, server.baseUrl, otherEmail);
      await page.goto(`${server.baseUrl}/music/albums/saved`);
      await page.getByText('No music saved on this device yet.', { exact: false }).waitFor();
      await page.getByText('Saved music uses 0 B').waitFor();
      await expect
        .poll(async () => (await storeRows<{ owner: string | null }>(page, 'device'))[0]?.owner)
        .toBe(otherEmail);
      await goOffline(context, page);
      allowConsoleErrors(page, /ERR_FAILED .*\/api\/music-library\/album\//);
      const answers = await page.evaluate(
        async ({ albumId, src }) => {
          const attempt = (url: string) =>
            fetch(url).then(
              (response) => `${response.status} ${response.headers.get('x-offline') ?? ''}`.trim(),
              () => 'no answer',
            );
          return { album: await attempt(`/api/music-library/album/${albumId}`), stream: await attempt(src) };
        },
        { albumId: bought.id, src: track!.src },
      );
      expect(answers).toEqual({ album: 'no answer', stream: 'no answer' });
      await context.setOffline(false);

      // Logging out asks only someone with saved music of their own.
      await logOutFromMenu(page);
      await page.waitForURL(`${server.baseUrl}/`);
      expect(await page.getByRole('dialog').count()).toBe(0);

      // Its owner is back: still there; this time it goes with the logout.
      await logIn(page, server.baseUrl, ownerEmail);
      await page.goto(`${server.baseUrl}/music/albums/saved`);
      await page.getByRole('link', { name: bought.name }).waitFor();
      await logOutFromMenu(page);
      await page.getByRole('button', { name: 'Remove and log out' }).click();
      await page.waitForURL(`${server.baseUrl}/`);
      await expect.poll(() => savedBytes(page)).toBe(0);
      expect(await savedAlbumIds(page)).toEqual([]);
    } finally {
      await close();
    }
  });

  it("opens a saved album's page from the device when the network does not answer", async () => {
    const { page, context, close } = await controlledPage(server.baseUrl, ownerEmail);
    try {
      await saveAlbum(page, bought);
      // Connected, but the library's answers never come ('lie-fi').
      const held = gate();
      await context.route('**/api/music-library/album/**', async (route) => {
        await held.opened;
        await route.abort().catch(() => undefined);
      });
      try {
        await page.goto(`${server.baseUrl}/music/album/${bought.slug}`);
        await page.getByRole('heading', { level: 1, name: bought.name }).waitFor({ timeout: 10_000 });
        await page.getByRole('button', { name: 'Play Track 1' }).waitFor();
      } finally {
        held.open();
      }
    } finally {
      await close();
    }
  });
});
