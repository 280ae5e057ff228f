// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GivingPage } from '../../client/features/giving/giving-page';
import { queryClient } from '../../client/lib/query-client';
import { setUser } from '../../client/lib/session';
import type { Giving } from '../../shared/answers/giving';
import type { User } from '../../shared/answers/accounts';
import { givingMessages } from '../../shared/schemas/giving';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// The giving history page (issue 26), rendered by the real router and query client over answers
// given at the network boundary (fetch): the year's payments with gifts and refunds, the totals by
// charity, the statement's link, a receipt sent again with its outcome announced, an empty year,
// and the verify-your-email treatment of Your music.

const donor: User = {
  firstName: 'Test',
  lastName: 'User',
  email: 'giver@example.org',
  isEmailVerified: true,
  isAdmin: false,
};

const year2025: Giving = {
  year: 2025,
  years: [2026, 2025],
  donations: [
    {
      paymentIntentId: 'pi_gift',
      date: '2026-01-01T07:00:00.000Z',
      fundraiserName: 'Hope Songs',
      charityName: 'American Cancer Society',
      ein: '131788491',
      donationCents: 1000,
      tipCents: 0,
      feeCoverCents: 53,
      refundedCents: 0,
      taxDeductibleCents: 553,
      gift: { recipientName: 'Robin', recipientEmail: 'robin@example.org' },
    },
    {
      paymentIntentId: 'pi_refunded',
      date: '2025-06-01T18:00:00.000Z',
      fundraiserName: 'Relief Songs',
      charityName: 'American National Red Cross',
      ein: '530196605',
      donationCents: 2500,
      tipCents: 500,
      feeCoverCents: 0,
      refundedCents: 1500,
      taxDeductibleCents: 750,
      gift: null,
    },
    {
      paymentIntentId: 'pi_platform',
      date: '2025-03-01T18:00:00.000Z',
      fundraiserName: null,
      charityName: null,
      ein: null,
      donationCents: 0,
      tipCents: 1500,
      feeCoverCents: 0,
      refundedCents: 0,
      taxDeductibleCents: 0,
      gift: null,
    },
  ],
  byCharity: [
    { ein: '131788491', charityName: 'American Cancer Society', taxDeductibleCents: 553 },
    { ein: '530196605', charityName: 'American National Red Cross', taxDeductibleCents: 750 },
  ],
  taxDeductibleCents: 1303,
};

const site = {
  siteName: 'Soundcause',
  contactEmail: 'hello@soundcause.org',
  postalAddress: 'Portland',
  socialLinks: [],
  promoProjectId: null,
  timeZone: 'America/Los_Angeles',
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let receiptCalls = 0;
const roots: Root[] = [];
function answer(url: string, init?: RequestInit): Response {
  const path = new URL(url, 'http://localhost').pathname + new URL(url, 'http://localhost').search;
  if (path === '/api/user') return json(donor);
  if (path === '/api/site') return json(site);
  if (path === '/api/giving' || path === '/api/giving?year=2025') return json(year2025);
  if (path === '/api/giving?year=2026')
    return json({ ...year2025, year: 2026, donations: [], byCharity: [], taxDeductibleCents: 0 });
  if (path.startsWith('/api/giving/receipts/') && init?.method === 'POST') {
    receiptCalls += 1;
    return receiptCalls === 1
      ? json({ sentTo: donor.email }, 202)
      : json({ code: 'RATE_LIMITED', message: givingMessages.receiptCopyTooSoon(540_000) }, 429);
  }
  return json({ code: 'OTHER', message: 'Not found.' }, 404);
}

async function renderAt(path: string) {
  const router = createMemoryRouter([{ path: '/account/giving', element: <GivingPage /> }], {
    initialEntries: [path],
  });
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  roots.push(root);
  await act(async () =>
    root.render(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    ),
  );
  return { container, router };
}

/** Waits for what the page shows once its answers have come, React's updates flushed in act each time. */
async function until(check: () => boolean) {
  for (let tries = 0; tries < 150 && !check(); tries++) {
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
  }
  expect(check()).toBe(true);
}

beforeEach(() => {
  receiptCalls = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => Promise.resolve(answer(url, init))),
  );
});

afterEach(async () => {
  // The page goes first, and every query with it, before fetch is the real one again.
  await act(async () => roots.splice(0).forEach((root) => root.unmount()));
  await queryClient.cancelQueries();
  queryClient.clear();
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
});

describe('GivingPage', () => {
  it("shows the year's donations, gifts, refunds, the totals by charity and the statement's link", async () => {
    act(() => setUser(donor));
    const { container } = await renderAt('/account/giving');
    await until(() => container.querySelector('table') !== null);
    expect(container.querySelector('h1')?.textContent).toBe('Giving history');
    const years = [...container.querySelectorAll('nav[aria-label="Years"] a')];
    expect(years.map((link) => [link.textContent, link.getAttribute('aria-current')])).toEqual([
      ['2026', null],
      ['2025', 'page'],
    ]);
    const text = container.textContent ?? '';
    expect(text).toContain('Gift for Robin');
    expect(text).toContain('Gift to Soundcause');
    // The payment at 07:00 UTC on January 1 was made on New Year's Eve where the site is.
    expect(text).toContain('Dec 31, 2025');
    expect(text).toContain('EIN 13-1788491');
    expect(text).toContain('$15.00');
    expect(text).toContain('Total tax-deductible in 2025');
    expect(container.querySelector('.giving-total dd')?.textContent).toBe('$13.03');
    const statement = [...container.querySelectorAll('a')].find(
      (link) => link.textContent === 'Download statement (PDF)',
    );
    expect(statement?.getAttribute('href')).toBe('/api/giving/statement/2025.pdf');
    // Every figure of a card is named for a phone (client/ui/table-cards.css).
    for (const cell of container.querySelectorAll('td.number')) expect(cell.getAttribute('data-label')).toBeTruthy();
  });

  it('sends a receipt again and says what came of it where a screen reader hears it', async () => {
    act(() => setUser(donor));
    const { container } = await renderAt('/account/giving?year=2025');
    await until(() => container.querySelectorAll('.giving-resend button').length === 3);
    const [first] = container.querySelectorAll<HTMLButtonElement>('.giving-resend button');
    const status = first!.closest('.giving-resend')!.querySelector('[role="status"]')!;
    expect(status.textContent).toBe('');
    await act(async () => first!.click());
    await until(() => status.textContent !== '');
    expect(status.textContent).toBe('Sent to giver@example.org. It can take a few minutes to arrive.');
    await act(async () => first!.click());
    await until(() => status.textContent === givingMessages.receiptCopyTooSoon(540_000));
  });

  it('says so for a year without donations', async () => {
    act(() => setUser(donor));
    const { container } = await renderAt('/account/giving?year=2026');
    await until(() => (container.textContent ?? '').includes('No donations in 2026.'));
    expect(container.querySelector('table')).toBeNull();
  });

  it('asks an unverified account to verify its email first, as Your music does', async () => {
    act(() => setUser({ ...donor, isEmailVerified: false }));
    const { container } = await renderAt('/account/giving');
    expect(container.textContent).toContain('Verify your email to see your giving history.');
    expect(container.querySelector('a.button')?.getAttribute('href')).toBe('/user/verify-email');
    expect(vi.mocked(fetch).mock.calls.some(([url]) => String(url).startsWith('/api/giving'))).toBe(false);
  });
});
