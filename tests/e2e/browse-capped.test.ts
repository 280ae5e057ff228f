import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SEARCH_RESULT_CAP } from '../../shared/constants';
import { newPage, useAppAndBrowser } from '../fixtures/e2e-app';
import type { TestServer } from '../fixtures/test-server';

// Browse past the search cap (issue 13): more published artists and fundraisers than
// SEARCH_RESULT_CAP match 'quasar', so their totals come capped. The page says '10,000+', pages
// through 500 pages, and the last one says why there is no Next. The rows are written straight
// into SQLite (the API would take minutes for 10,000 of them); the real triggers index them.

const COUNT = SEARCH_RESULT_CAP + 50;
let server: TestServer;
let browser: Browser;
useAppAndBrowser((startedServer, startedBrowser) => {
  server = startedServer;
  browser = startedBrowser;
  const { sqlite } = server;
  const userId = sqlite
    .prepare("INSERT INTO users (email, password_hash) VALUES ('capped@example.org', 'x')")
    .run().lastInsertRowid;
  const insertArtist = sqlite.prepare(
    `INSERT INTO artists (user_id, name, description, status, url_slug, published_at)
     VALUES (?, ?, 'Songs.', 'PUBLISHED', ?, ?)`,
  );
  const insertFundraiser = sqlite.prepare(
    `INSERT INTO fundraisers (user_id, artist_id, name, description, charity_ein, charity_name, minimum_donation_cents,
       genre, status, url_slug, published_at)
     VALUES (?, ?, ?, 'Songs.', '530196605', 'American National Red Cross', 500, 'Rock', 'PUBLISHED', ?, ?)`,
  );
  const start = Date.UTC(2025, 0, 1);
  sqlite.transaction(() => {
    for (let i = 0; i < COUNT; i++) {
      const artistId = insertArtist.run(userId, `Quasar Band ${i}`, `quasar-band-${i}`, start + i).lastInsertRowid;
      insertFundraiser.run(userId, artistId, `Quasar Album ${i}`, `quasar-album-${i}`, start + i);
    }
  })();
});

const pagination = (page: Page) => page.getByRole('navigation', { name: /pages$/ });
const note = 'Only the first 10,000 results are shown. Add words to narrow the search.';

describe('browse past the search cap', () => {
  it('says 10,000+ fundraisers, pages through 500 pages and says why the last has no Next', async () => {
    const { page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/browse/projects?searchTerm=quasar`);
    await page.getByRole('heading', { name: 'Search results 10,000+ fundraisers' }).waitFor();
    await pagination(page).getByText('Page 1 of 500').waitFor();
    expect(await page.getByText(note).count()).toBe(0);

    await page.goto(`${server.baseUrl}/browse/projects?searchTerm=quasar&page=499`);
    await pagination(page).getByText('Page 500 of 500').waitFor();
    await page.getByText(note).waitFor();
    await expect.poll(() => page.locator('main .fundraiser-tile').count()).toBe(20);
    expect(await pagination(page).getByRole('link', { name: 'Next' }).count()).toBe(0);
    await pagination(page).getByRole('link', { name: 'Previous' }).click();
    await page.waitForURL('**/browse/projects?searchTerm=quasar&page=498');
    await pagination(page).getByText('Page 499 of 500').waitFor();
    expect(await page.getByText(note).count()).toBe(0);
  });

  it('says 10,000+ artists, and caps the recent list the same way', async () => {
    const { page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/browse/artists?searchTerm=quasar`);
    await page.getByRole('heading', { name: 'Search results 10,000+ artists' }).waitFor();
    await pagination(page).getByText('Page 1 of 500').waitFor();

    // A term under the cap counts exactly.
    await page.goto(`${server.baseUrl}/browse/artists?searchTerm=quasar+1234`);
    await page.getByRole('heading', { name: 'Search results 1 artist' }).waitFor();

    await page.goto(`${server.baseUrl}/browse/projects?page=499`);
    await page.getByRole('heading', { name: 'Recent fundraisers', exact: true }).waitFor();
    await pagination(page).getByText('Page 500 of 500').waitFor();
    await page.getByText(note).waitFor();
  });
});
