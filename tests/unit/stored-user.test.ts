import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { userSchema } from '../../shared/answers/accounts';
import { isStoredUser } from '../../client/lib/session';

// The user kept in sessionStorage and localStorage is checked by hand on every first load (zod is
// not loaded yet: issue 13). That check must say what the answer's schema says, for any value.

const nameLike = fc.oneof(fc.string(), fc.constant(null), fc.constant(undefined), fc.integer());
const userLike = fc.record(
  {
    firstName: nameLike,
    lastName: nameLike,
    email: fc.oneof(fc.emailAddress(), fc.constant(null), fc.integer()),
    isEmailVerified: fc.oneof(fc.boolean(), fc.constant('true'), fc.constant(null)),
    isAdmin: fc.oneof(fc.boolean(), fc.constant(undefined), fc.constant(1)),
    extra: fc.string(),
  },
  { requiredKeys: [] },
);

describe('the stored user check', () => {
  it('agrees with userSchema on users, near-users and other values', () => {
    fc.assert(
      fc.property(fc.oneof(userLike, fc.anything()), (value) => {
        expect(isStoredUser(value)).toBe(userSchema.safeParse(value).success);
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts a real user and refuses one without its email', () => {
    const user = { firstName: 'Ada', lastName: null, email: 'ada@example.org', isEmailVerified: true };
    expect(isStoredUser(user)).toBe(true);
    expect(isStoredUser({ ...user, email: undefined })).toBe(false);
  });
});
