import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  charityFeeShare,
  charityShareOfTakenBack,
  NOTHING_YET,
  paymentFigures,
} from '../../server/features/journal/money';
import { estimatedFeeCents } from '../../server/infra/payments/provider';
import { formatDollars, taxDeductibleCents, tipForPreset } from '../../shared/money';
import { donationLimits, donationMessages, donationOf, tipOf } from '../../shared/donation-rules';
import { donationFormSchema, paymentIntentRequestSchema } from '../../shared/schemas/donations';

// The money rules of donations (issues 10 and 23), in integer cents: what a payment's journal
// rows must add up to (server/features/journal/money.ts).

const made = (donationCents: number, tipCents: number) => ({ donationCents, tipCents, feeCoverCents: 0 });
const charityRefundShare = (refunded: number, donation: number, tip: number) =>
  charityShareOfTakenBack(refunded, made(donation, tip));
/** The charity's parts of a paid payment with a fee and a refund, as the journal's rows add them up. */
function charityFigures(payment: { amountCents: number; tipCents: number; feeCents: number; refundedCents: number }) {
  const figures = paymentFigures(made(payment.amountCents, payment.tipCents), {
    ...NOTHING_YET,
    charged: true,
    feeCents: payment.feeCents,
    takenBackCents: payment.refundedCents,
  });
  return {
    charityRefundedCents: payment.amountCents - figures.money.charityCents,
    charityFeeCents: 0 - figures.fee.charityCents,
  };
}

const cents = fc.integer({ min: 0, max: donationLimits.maxCents });

describe('tip presets', () => {
  it('are the percentage of the donation rounded to the cent', () => {
    expect(tipForPreset(1000, 10)).toBe(100);
    expect(tipForPreset(1999, 20)).toBe(400); // 399.8
    expect(tipForPreset(1234, 30)).toBe(370); // 370.2
    expect(tipForPreset(5, 10)).toBe(1); // 0.5 rounds up
    expect(tipForPreset(0, 30)).toBe(0);
  });

  it('stay whole cents within a cent of the exact share', () => {
    fc.assert(
      fc.property(cents, fc.constantFrom(10, 20, 30), (donation, percent) => {
        const tip = tipForPreset(donation, percent);
        expect(Number.isInteger(tip)).toBe(true);
        expect(Math.abs(tip - (donation * percent) / 100)).toBeLessThanOrEqual(0.5);
      }),
    );
  });
});

describe('the tip as chosen (the donate page reads it before zod loads)', () => {
  it('is none, a preset share of the donation, or a custom amount in dollars', () => {
    expect(tipOf(null, '', 2500)).toEqual({ error: donationMessages.tipRequired });
    expect(tipOf('none', '12', 2500)).toEqual({ cents: 0 });
    expect(tipOf('20', '', 1999)).toEqual({ cents: 400 });
    expect(tipOf('custom', '12.50', 2500)).toEqual({ cents: 1250 });
    expect(tipOf('custom', '$7', 2500)).toEqual({ cents: 700 });
  });

  it("says what is wrong with a custom amount, in the form schema's words", () => {
    expect(tipOf('custom', 'ten', 2500)).toEqual({ error: donationMessages.amount('Tip') });
    expect(tipOf('custom', '100000.01', 2500)).toEqual({ error: donationMessages.tipMax });
    expect(tipOf('custom', '100000', 2500)).toEqual({ cents: donationLimits.maxCents });
  });

  it('is what the form schema pays, and the schema refuses what it refuses', () => {
    const schema = donationFormSchema(500, () => '2026-11-29');
    const form = {
      name: 'Ada',
      email: 'ada@example.org',
      donationCents: '25',
      coverFees: false,
      isGift: false,
      gift: { recipientName: '', recipientEmail: '', message: '', deliverOn: '' },
    };
    expect(schema.parse({ ...form, tipChoice: '20', tipCents: '' })).toEqual({
      name: 'Ada',
      email: 'ada@example.org',
      donationCents: donationOf('25'),
      tipCents: 500,
      coverFees: false,
      gift: null,
    });
    for (const [tipChoice, tipCents] of [
      [null, ''],
      ['custom', 'ten'],
      ['custom', '100000.01'],
    ] as const) {
      const tip = tipOf(tipChoice, tipCents, 2500);
      const read = schema.safeParse({ ...form, tipChoice, tipCents });
      expect(read.success).toBe(false);
      expect(read.error?.issues.find((issue) => issue.path[0] === 'tipCents')?.message).toBe(
        'error' in tip ? tip.error : undefined,
      );
    }
  });
});

describe("a gift's delivery date in the donate form", () => {
  const form = {
    name: 'Ada',
    email: 'ada@example.org',
    donationCents: '25',
    tipChoice: '20',
    tipCents: '',
    coverFees: false,
    isGift: true,
    gift: { recipientName: 'Grace', recipientEmail: 'grace@example.org', message: '', deliverOn: '2026-11-29' },
  };
  const deliverOnError = (read: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
    read.error?.issues.find((issue) => issue.path.join('.') === 'gift.deliverOn')?.message;

  it("is checked against the site's day as it is when the donor goes on, not when the page opened", () => {
    let today = '2026-11-29';
    const schema = donationFormSchema(500, () => today);
    expect(deliverOnError(schema.safeParse(form))).toBeUndefined();
    // The page stayed open past midnight: yesterday is now in the past.
    today = '2026-11-30';
    expect(deliverOnError(schema.safeParse(form))).toBe(donationMessages.deliverOnPast);
    expect(deliverOnError(schema.safeParse({ ...form, gift: { ...form.gift, deliverOn: '2027-12-01' } }))).toBe(
      donationMessages.deliverOnTooLate,
    );
  });

  it('asks for the day only for a gift (working it out in a zone costs the first paint)', () => {
    let asked = 0;
    const schema = donationFormSchema(500, () => {
      asked++;
      return '2026-11-29';
    });
    expect(schema.safeParse({ ...form, isGift: false }).success).toBe(true);
    expect(asked).toBe(0);
    schema.safeParse(form);
    expect(asked).toBe(1);
  });
});

describe('fees', () => {
  it("estimates the test provider's fee as 2.2 % + 30¢", () => {
    expect(estimatedFeeCents(1000)).toBe(52);
    expect(estimatedFeeCents(3000)).toBe(96);
    expect(estimatedFeeCents(100)).toBe(32);
  });

  it('splits the fee between the charity and the platform, the two shares adding up to it', () => {
    expect(charityFeeShare(96, 2500, 3000)).toBe(80);
    expect(charityFeeShare(52, 1000, 1000)).toBe(52);
    expect(charityFeeShare(32, 0, 100)).toBe(0);
    fc.assert(
      fc.property(cents, cents, fc.integer({ min: 0, max: 1_000_000 }), (donation, tip, fee) => {
        const charity = charityFeeShare(fee, donation, donation + tip);
        expect(Number.isInteger(charity)).toBe(true);
        expect(charity).toBeGreaterThanOrEqual(0);
        expect(charity).toBeLessThanOrEqual(fee);
        if (tip === 0 && donation > 0) expect(charity).toBe(fee);
      }),
    );
  });
});

describe('refunds', () => {
  it('give back donation and tip in proportion, the donation all of it on a full refund', () => {
    expect(charityRefundShare(1000, 4000, 1000)).toBe(800);
    expect(charityRefundShare(5000, 4000, 1000)).toBe(4000);
    expect(charityRefundShare(9999, 4000, 1000)).toBe(4000);
    expect(charityRefundShare(500, 1000, 0)).toBe(500);
    expect(charityRefundShare(300, 0, 500)).toBe(0);
    expect(charityRefundShare(1, 1, 2)).toBe(0); // 0.33…
    expect(charityRefundShare(0, 1000, 100)).toBe(0);
  });

  it('leave the charity the fee of what it kept, at the payment rate; nothing after a full refund', () => {
    // No refund: the proportional share of the whole fee.
    expect(charityFigures({ amountCents: 2500, tipCents: 500, feeCents: 96, refundedCents: 0 })).toEqual({
      charityRefundedCents: 0,
      charityFeeCents: 80,
    });
    // $10 of $50 back: the charity keeps $32.00 and its fee 175 × 3200 / 5000.
    expect(charityFigures({ amountCents: 4000, tipCents: 1000, feeCents: 175, refundedCents: 1000 })).toEqual({
      charityRefundedCents: 800,
      charityFeeCents: 112,
    });
    expect(charityFigures({ amountCents: 4000, tipCents: 1000, feeCents: 175, refundedCents: 5000 })).toEqual({
      charityRefundedCents: 4000,
      charityFeeCents: 0,
    });
  });

  it('never give the charity less than nothing, and keep every figure whole and in bounds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: donationLimits.maxCents }),
        fc.integer({ min: 0, max: donationLimits.maxCents }),
        fc.integer({ min: 0, max: 2 * donationLimits.maxCents }),
        fc.double({ min: 0, max: 0.2, noNaN: true }),
        (donation, tip, refunded, feeRate) => {
          fc.pre(donation + tip > 0);
          const payment = donation + tip;
          const fee = Math.round(payment * feeRate);
          const figures = charityFigures({
            amountCents: donation,
            tipCents: tip,
            feeCents: fee,
            refundedCents: refunded,
          });
          const kept = donation - figures.charityRefundedCents;
          expect(Number.isInteger(figures.charityRefundedCents)).toBe(true);
          expect(figures.charityRefundedCents).toBeGreaterThanOrEqual(0);
          expect(figures.charityRefundedCents).toBeLessThanOrEqual(Math.min(donation, refunded));
          // The tip's part is the rest, within the tip.
          expect(Math.min(refunded, payment) - figures.charityRefundedCents).toBeLessThanOrEqual(tip);
          expect(figures.charityFeeCents).toBeGreaterThanOrEqual(0);
          expect(figures.charityFeeCents).toBeLessThanOrEqual(charityFeeShare(fee, donation, payment));
          // What the charity keeps after its fee is never below zero (fees are below the payment).
          expect(kept - figures.charityFeeCents!).toBeGreaterThanOrEqual(0);
          if (refunded >= payment) expect(figures).toEqual({ charityRefundedCents: donation, charityFeeCents: 0 });
        },
      ),
    );
  });
});

describe("a payment's figures (what its journal rows add up to)", () => {
  const facts = fc.record({
    charged: fc.boolean(),
    feeCents: fc.integer({ min: 0, max: 500_000 }),
    takenBackCents: fc.integer({ min: 0, max: 3 * donationLimits.maxCents }),
    disputeFeeCents: fc.integer({ min: 0, max: 5_000 }),
  });

  it('move exactly the money: the charge less what went back, the fee only between the parties', () => {
    fc.assert(
      fc.property(cents, cents, cents, facts, (donationCents, tipCents, feeCoverCents, known) => {
        const amounts = { donationCents, tipCents, feeCoverCents };
        const { money, fee } = paymentFigures(amounts, known);
        const paid = known.charged ? donationCents + tipCents + feeCoverCents : 0;
        expect(money.charityCents + money.platformCents + money.processorCents).toBe(paid - known.takenBackCents);
        expect(money.processorCents).toBe(known.disputeFeeCents);
        expect(fee.charityCents + fee.platformCents + fee.processorCents).toBe(0);
        // The charity never gives back more than it was given, nor pays more fee than there is.
        expect(money.charityCents).toBeGreaterThanOrEqual(known.charged ? 0 : -(donationCents + feeCoverCents));
        expect(-fee.charityCents).toBeLessThanOrEqual(known.charged ? known.feeCents : 0);
        expect(-fee.charityCents).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('give the charity its donation and the fee it covers, and carry the fee of money gone back to the platform', () => {
    const amounts = { donationCents: 2500, tipCents: 500, feeCoverCents: 107 };
    const paid = paymentFigures(amounts, { ...NOTHING_YET, charged: true, feeCents: 99 });
    expect(paid.money).toEqual({ charityCents: 2607, platformCents: 500, processorCents: 0 });
    // The charity's share of the fee: 99 × 2607 / 3107 = 83.07.
    expect(paid.fee).toEqual({ charityCents: -83, platformCents: -16, processorCents: 99 });
    // A dispute of everything, with a $15 fee the platform pays: nothing kept, no fee for the charity.
    const disputed = paymentFigures(amounts, {
      charged: true,
      feeCents: 99,
      takenBackCents: 3107,
      disputeFeeCents: 1500,
    });
    expect(disputed.money).toEqual({ charityCents: 0, platformCents: -1500, processorCents: 1500 });
    expect(disputed.fee).toEqual({ charityCents: 0, platformCents: -99, processorCents: 99 });
  });
});

describe('the tax-deductible part', () => {
  it('is what was given above the minimum, never below 0', () => {
    expect(taxDeductibleCents(2500, 500)).toBe(2000);
    expect(taxDeductibleCents(500, 500)).toBe(0);
    expect(taxDeductibleCents(0, 500)).toBe(0);
  });
});

describe('the payment intent request', () => {
  const base = { name: 'June', email: 'June@Example.org', donationCents: 500, tipCents: 0, projectId: 1 };

  it('formats its limits in the messages with two decimals', () => {
    expect(formatDollars(10_000_000)).toBe('100,000.00');
    expect(donationMessages.minimum(500)).toBe('Donation must be at least $5.00');
    expect(donationMessages.hint(1250)).toBe('Must be $12.50 or more');
  });

  it('takes integer cents within the bounds, inclusive, and nothing else', () => {
    expect(paymentIntentRequestSchema.safeParse({ ...base, tipCents: donationLimits.maxCents }).success).toBe(true);
    for (const bad of [0.5, -1, donationLimits.maxCents + 1, '500', null]) {
      expect(paymentIntentRequestSchema.safeParse({ ...base, donationCents: bad }).success).toBe(false);
    }
    expect(paymentIntentRequestSchema.parse(base).email).toBe('june@example.org');
  });
});
