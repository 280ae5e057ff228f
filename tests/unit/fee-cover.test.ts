import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deliveryDateProblem, donationLimits, donationMessages } from '../../shared/donation-rules';
import { DEFAULT_FEE_RATES, feeCoverCents, processorFeeCents } from '../../shared/fee-cover';
import { donationFormSchema, paymentIntentRequestSchema } from '../../shared/schemas/donations';
import { loadConfig } from '../../server/config';
import { giftMorning } from '../../server/features/donations/gift-delivery';
import { siteCalendarDate, siteHour } from '../../shared/site-dates';
import { paymentFigures } from '../../server/features/journal/money';
import { estimatedFeeCents } from '../../server/infra/payments/provider';

// Covering the card fee and giving the album (issue 26): the cover's rule, checked against the
// money journal's own figures, and the gift's rules as the form and the API state them.

const donations = fc.integer({ min: 0, max: donationLimits.maxCents });
const rates = fc.record({
  basisPoints: fc.integer({ min: 0, max: 2_000 }),
  fixedCents: fc.integer({ min: 0, max: 1_000 }),
});

/** What the charity keeps of a payment charged and never taken back, after its share of the fee. */
function charityKeeps(donationCents: number, tipCents: number, feeCoverCents: number, feeCents: number) {
  const facts = { charged: true, feeCents, takenBackCents: 0, disputeFeeCents: 0 };
  const figures = paymentFigures({ donationCents, tipCents, feeCoverCents }, facts);
  return figures.money.charityCents + figures.fee.charityCents;
}

describe('covering the card fee', () => {
  it('adds what leaves the charity all of a $25.00 donation at 2.2 % + 30¢', () => {
    // The fee of $25.87 is 57¢ + 30¢ = 87¢: all of it the charity's share, with no tip.
    expect(feeCoverCents(2500, 0, DEFAULT_FEE_RATES)).toBe(87);
    expect(processorFeeCents(2587, DEFAULT_FEE_RATES)).toBe(87);
    // With a tip the platform carries its share of the fee, so the charity needs less.
    expect(feeCoverCents(2500, 500, DEFAULT_FEE_RATES)).toBeLessThan(87);
    expect(feeCoverCents(0, 500, DEFAULT_FEE_RATES)).toBe(0);
  });

  it('is the least whole cent after which the charity keeps at least the whole donation, at any rates', () => {
    fc.assert(
      fc.property(donations, donations, rates, (donation, tip, feeRates) => {
        const cover = feeCoverCents(donation, tip, feeRates);
        expect(Number.isSafeInteger(cover)).toBe(true);
        expect(cover).toBeGreaterThanOrEqual(0);
        const fee = (withCover: number) => processorFeeCents(donation + tip + withCover, feeRates);
        if (donation === 0) {
          expect(cover).toBe(0);
          return;
        }
        expect(charityKeeps(donation, tip, cover, fee(cover))).toBeGreaterThanOrEqual(donation);
        if (cover > 0) expect(charityKeeps(donation, tip, cover - 1, fee(cover - 1))).toBeLessThan(donation);
      }),
      { numRuns: 2_000 },
    );
  });

  it("keeps every figure reconciled when the test provider charges it: the payment is each party's parts", () => {
    fc.assert(
      fc.property(donations, donations, (donation, tip) => {
        fc.pre(donation + tip > 0);
        const cover = feeCoverCents(donation, tip, DEFAULT_FEE_RATES);
        const payment = donation + tip + cover;
        const fee = estimatedFeeCents(payment);
        const facts = { charged: true, feeCents: fee, takenBackCents: 0, disputeFeeCents: 0 };
        const { money, fee: feeParts } = paymentFigures(
          { donationCents: donation, tipCents: tip, feeCoverCents: cover },
          facts,
        );
        // The money in is the whole charge; the fee moves from charity and platform to the processor.
        expect(money.charityCents + money.platformCents + money.processorCents).toBe(payment);
        expect(feeParts.charityCents + feeParts.platformCents + feeParts.processorCents).toBe(0);
        expect(feeParts.processorCents).toBe(fee);
        expect(money.charityCents).toBe(donation + cover);
        expect(money.charityCents + feeParts.charityCents).toBeGreaterThanOrEqual(donation);
      }),
      { numRuns: 2_000 },
    );
  });

  it("is worked out at the operator's rates: FEE_PERCENT with up to two decimals, FEE_FIXED_CENTS", () => {
    expect(loadConfig({}).feeRates).toEqual(DEFAULT_FEE_RATES);
    expect(loadConfig({ FEE_PERCENT: '2.9', FEE_FIXED_CENTS: '25' }).feeRates).toEqual({
      basisPoints: 290,
      fixedCents: 25,
    });
    expect(() => loadConfig({ FEE_PERCENT: '2.345' })).toThrow(/FEE_PERCENT: at most two decimals/);
    expect(() => loadConfig({ FEE_FIXED_CENTS: '30.5' })).toThrow(/FEE_FIXED_CENTS/);
  });

  it('is refused on a gift to the platform, which has no charity', () => {
    const read = paymentIntentRequestSchema.safeParse({
      name: 'Ada',
      email: 'ada@example.org',
      donationCents: 0,
      tipCents: 500,
      projectId: null,
      coverFees: true,
    });
    expect(read.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['coverFees', donationMessages.coverFeesToPlatform],
    ]);
  });
});

describe('a gift', () => {
  const form = {
    name: 'Ada',
    email: 'ada@example.org',
    donationCents: '25',
    tipChoice: 'none',
    tipCents: '',
    coverFees: true,
    isGift: true,
    gift: { recipientName: ' Grace ', recipientEmail: 'Grace@Example.org', message: 'For you', deliverOn: '' },
  } as const;
  const schema = donationFormSchema(500, () => '2026-11-29');
  const problems = (values: object) =>
    schema.safeParse(values).error?.issues.map((issue) => [issue.path.join('.'), issue.message]) ?? [];

  it('is paid with its recipient, trimmed and lower-cased, and the fee cover', () => {
    expect(schema.parse(form)).toEqual({
      name: 'Ada',
      email: 'ada@example.org',
      donationCents: 2500,
      tipCents: 0,
      coverFees: true,
      gift: { recipientName: 'Grace', recipientEmail: 'grace@example.org', message: 'For you', deliverOn: null },
    });
    // Unticked, what was typed in its fields stays out of the payment, and is not checked.
    expect(schema.parse({ ...form, isGift: false, gift: { ...form.gift, recipientEmail: 'nope' } }).gift).toBeNull();
  });

  it("names each field's problem in the spec's templates", () => {
    const gift = { recipientName: '', recipientEmail: 'grace', message: 'x'.repeat(501), deliverOn: '' };
    expect(problems({ ...form, gift })).toEqual([
      ['gift.recipientName', 'Recipient name is required.'],
      ['gift.recipientEmail', 'Please enter a valid email.'],
      ['gift.message', 'Message cannot exceed 500 character(s).'],
    ]);
    expect(problems({ ...form, gift: { ...form.gift, recipientName: 'x'.repeat(101) } })).toEqual([
      ['gift.recipientName', 'Recipient name cannot exceed 100 character(s).'],
    ]);
  });

  it('is refused to oneself, whatever the case of the address', () => {
    expect(problems({ ...form, gift: { ...form.gift, recipientEmail: 'ADA@example.org' } })).toEqual([
      ['gift.recipientEmail', donationMessages.giftToSelf],
    ]);
    const read = paymentIntentRequestSchema.safeParse({
      name: 'Ada',
      email: 'ada@example.org',
      donationCents: 2500,
      tipCents: 0,
      projectId: 1,
      gift: { recipientName: 'Ada', recipientEmail: 'Ada@Example.org' },
    });
    expect(read.error?.issues.map((issue) => issue.message)).toEqual([donationMessages.giftToSelf]);
  });

  it('goes out at 08:00 on its day where the site is, clock changes included', () => {
    for (const [day, timeZone] of [
      ['2027-03-14', 'America/Los_Angeles'], // clocks go forward
      ['2026-11-01', 'America/Los_Angeles'], // clocks go back
      ['2026-12-24', 'America/Los_Angeles'],
      ['2026-09-06', 'America/Santiago'], // the clocks jump at midnight
      ['2026-07-01', 'UTC'],
    ] as const) {
      const morning = giftMorning(day, timeZone);
      expect([siteCalendarDate(morning, timeZone), siteHour(morning, timeZone), morning.getUTCMinutes()]).toEqual([
        day,
        8,
        0,
      ]);
    }
  });

  it('goes out on a day from today to a year ahead', () => {
    const today = '2026-11-29';
    expect(deliveryDateProblem('', today)).toBeNull();
    expect(deliveryDateProblem(today, today)).toBeNull();
    expect(deliveryDateProblem('2027-11-29', today)).toBeNull();
    expect(deliveryDateProblem('2027-11-30', today)).toBe(donationMessages.deliverOnTooLate);
    expect(deliveryDateProblem('2026-11-28', today)).toBe(donationMessages.deliverOnPast);
    expect(deliveryDateProblem('2027-02-30', today)).toBe(donationMessages.deliverOnInvalid);
    expect(deliveryDateProblem('tomorrow', today)).toBe(donationMessages.deliverOnInvalid);
    expect(problems({ ...form, gift: { ...form.gift, deliverOn: '2025-12-24' } })).toEqual([
      ['gift.deliverOn', donationMessages.deliverOnPast],
    ]);
  });
});
