import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { donatedToday, forgetDonation, rememberDonation } from '../../client/features/donations/recent-donations';

// What this browser remembers of its own donations (issue 22): "today" is the last 24 hours, the
// latest donation is the one named, and an address is the same whatever its case.

/** The browser's localStorage, which Node lacks: kept in a Map. */
class MemoryStorage implements Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> {
  readonly items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, String(value));
  removeItem = (key: string) => void this.items.delete(key);
}

const HOUR = 60 * 60 * 1000;
const queryClient = new QueryClient();
const memo = (paymentIntentId: string, fundraiserId: number, email: string, donationCents: number) => ({
  paymentIntentId,
  fundraiserId,
  email,
  donationCents,
});

describe('donations remembered in this browser', () => {
  beforeEach(() => {
    vi.stubGlobal('localStorage', new MemoryStorage());
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-05-01T10:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('name the latest paid donation to that fundraiser from that address within 24 hours', async () => {
    rememberDonation(memo('tpi_1', 7, 'June@Example.org', 1200), true);
    vi.setSystemTime(new Date('2030-05-01T12:00:00Z'));
    rememberDonation(memo('tpi_2', 7, 'june@example.org', 1500), true);
    rememberDonation(memo('tpi_3', 8, 'june@example.org', 9900), true);
    rememberDonation(memo('tpi_4', 7, 'someone@example.org', 9900), true);
    expect(await donatedToday(queryClient, 7, ' JUNE@example.org ')).toBe(1500);
    expect(await donatedToday(queryClient, 9, 'june@example.org')).toBeNull();

    vi.setSystemTime(new Date('2030-05-02T11:59:00Z'));
    expect(await donatedToday(queryClient, 7, 'june@example.org')).toBe(1500);
    forgetDonation('tpi_2');
    expect(await donatedToday(queryClient, 7, 'june@example.org')).toBeNull(); // tpi_1 is 25 h old
    vi.setSystemTime(new Date('2030-05-02T12:00:00Z'));
    expect(await donatedToday(queryClient, 8, 'june@example.org')).toBeNull();
  });

  it('count a payment that left for Stripe once the server has it, and ask the server only until then', async () => {
    // Stripe's form writes the donation down unpaid before it leaves; the success page's lookup
    // (outside this module: fetched at the network boundary) says whether it went through.
    const asked: string[] = [];
    let fulfilled = false;
    vi.stubGlobal('fetch', async (url: string) => {
      asked.push(url);
      return fulfilled
        ? Response.json({
            donationCents: 1200,
            tipCents: 0,
            feeCoverCents: 0,
            gift: null,
            taxDeductibleCents: 700,
            minimumCents: 500,
            email: 'june@example.org',
            project: null,
            charity: null,
            tracks: [],
            downloadUrl: null,
          })
        : Response.json({ code: 'OTHER', message: 'Payment not found.' }, { status: 404 });
    });
    const client = new QueryClient();
    rememberDonation(memo('pi_1', 7, 'june@example.org', 1200), false);
    expect(await donatedToday(client, 7, 'june@example.org')).toBeNull();
    fulfilled = true;
    expect(await donatedToday(client, 7, 'june@example.org')).toBe(1200);
    // Written down as paid: another page (no cached answer) does not ask again.
    expect(await donatedToday(new QueryClient(), 7, 'june@example.org')).toBe(1200);
    expect(asked).toEqual([
      '/api/transactions/query?paymentIntentId=pi_1',
      '/api/transactions/query?paymentIntentId=pi_1',
    ]);
  });

  it('keep nothing older than a day, and survive storage that is full or holds junk', async () => {
    const storage = localStorage as unknown as MemoryStorage;
    rememberDonation(memo('tpi_1', 7, 'june@example.org', 1200), true);
    vi.setSystemTime(Date.now() + 25 * HOUR);
    rememberDonation(memo('tpi_2', 8, 'june@example.org', 1200), true);
    expect(JSON.parse(storage.getItem('soundcause-recent-donations')!)).toHaveLength(1);

    // Asking is enough to forget what is past a day: the address does not linger until the next donation.
    vi.setSystemTime(Date.now() + 25 * HOUR);
    expect(await donatedToday(queryClient, 8, 'june@example.org')).toBeNull();
    expect(storage.getItem('soundcause-recent-donations')).toBeNull();

    storage.setItem('soundcause-recent-donations', '{not json');
    expect(await donatedToday(queryClient, 8, 'june@example.org')).toBeNull();
    expect(storage.getItem('soundcause-recent-donations')).toBeNull();
    storage.setItem = () => {
      throw new DOMException('full', 'QuotaExceededError');
    };
    expect(() => rememberDonation(memo('tpi_3', 8, 'june@example.org', 1200), true)).not.toThrow();
  });
});
