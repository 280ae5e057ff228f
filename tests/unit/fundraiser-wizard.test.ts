import { describe, expect, it } from 'vitest';
import type { User } from '../../shared/answers/accounts';
import { charityFormSchema } from '../../client/features/fundraisers/charity-fields';
import type { WizardData } from '../../client/features/fundraisers/wizard/wizard-store';
import { applicableSteps, canVisit, firstOpenStep } from '../../client/features/fundraisers/wizard/wizard-steps';

const fresh: WizardData = {
  owner: null,
  hadSignup: false,
  hadVerify: false,
  draftId: null,
  artistId: null,
  charity: null,
  details: null,
  music: null,
  finished: false,
};
const user = (isEmailVerified: boolean): User => ({
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.org',
  isEmailVerified,
  isAdmin: false,
});
const paths = (steps: { path: string }[]) => steps.map((step) => step.path);
const charity = { fundraisingGoalCents: '500', donationMinimumCents: '10', charityEin: '53-0196605' };

describe('wizard steps (spec part 2 sections 2 and 4)', () => {
  it('shows sign-up only to guests and verification only to unverified users', () => {
    expect(paths(applicableSteps(null, fresh))).toEqual([
      'signup',
      'verify-email',
      'artist',
      'charity',
      'details',
      'music',
    ]);
    expect(paths(applicableSteps(user(false), fresh))).toEqual([
      'verify-email',
      'artist',
      'charity',
      'details',
      'music',
    ]);
    expect(paths(applicableSteps(user(true), fresh))).toEqual(['artist', 'charity', 'details', 'music']);
  });

  it('keeps sign-up and verification in the list, done, for a run that began with them', () => {
    const data = { ...fresh, owner: 'ada@example.org', hadSignup: true };
    const steps = applicableSteps(user(true), data);
    expect(paths(steps)).toEqual(['signup', 'verify-email', 'artist', 'charity', 'details', 'music']);
    const open = firstOpenStep(steps, user(true), data);
    expect(open.path).toBe('artist');
    expect(canVisit(steps, 'signup', open)).toBe(false);
    expect(canVisit(steps, 'verify-email', open)).toBe(false);
  });

  it('opens at the first step not done, lets earlier steps be revisited and later ones not', () => {
    const data = { ...fresh, owner: 'ada@example.org', artistId: 3, charity, draftId: 9 };
    const steps = applicableSteps(user(true), data);
    const open = firstOpenStep(steps, user(true), data);
    expect(open.path).toBe('details');
    expect(canVisit(steps, 'artist', open)).toBe(true);
    expect(canVisit(steps, 'charity', open)).toBe(true);
    expect(canVisit(steps, 'details', open)).toBe(true);
    expect(canVisit(steps, 'music', open)).toBe(false);
  });

  it('needs the draft saved before the charity step counts as done', () => {
    const data = { ...fresh, owner: 'ada@example.org', artistId: 3, charity };
    expect(firstOpenStep(applicableSteps(user(true), data), user(true), data).path).toBe('charity');
  });
});

describe('charity step money fields (spec part 2 section 5)', () => {
  const parse = (donationMinimumCents: string, fundraisingGoalCents = '500') =>
    charityFormSchema.safeParse({ ...charity, donationMinimumCents, fundraisingGoalCents });
  const messagesOf = (result: ReturnType<typeof parse>) => result.error?.issues.map((issue) => issue.message) ?? [];

  it('reads whole dollars, optionally with .0 or .00, as cents', () => {
    expect(parse('10').data?.donationMinimumCents).toBe(1000);
    expect(parse('10.0').data?.donationMinimumCents).toBe(1000);
    expect(parse('10.00').data?.donationMinimumCents).toBe(1000);
    expect(parse('10', '1234.56').data?.fundraisingGoalCents).toBe(123_456);
  });

  it('refuses cents and amounts under $2 in the minimum', () => {
    expect(messagesOf(parse('2.50'))).toEqual(['Donation minimum must be a whole dollar amount (no cents)']);
    expect(messagesOf(parse('1'))).toEqual(['Donation minimum must be at least $2']);
    expect(messagesOf(parse(''))).toEqual(['Donation minimum must be at least $2']);
    expect(messagesOf(parse('ten'))).toEqual(['Donation minimum must be a whole dollar amount (no cents)']);
  });

  it('requires the goal and the nonprofit', () => {
    expect(messagesOf(parse('10', ''))).toEqual(['Fundraising goal is required.']);
    const noCharity = charityFormSchema.safeParse({ ...charity, charityEin: '' });
    expect(noCharity.error?.issues[0]?.message).toBe('Nonprofit is required');
  });
});
