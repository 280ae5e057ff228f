import { describe, expect, it } from 'vitest';
import { streamGrants } from '../../server/access/stream-grants';
import type { SessionUser } from '../../server/infra/security/session-store';

// The memory of canStream's answers (server/access/stream-grants.ts, issue 13): what ends a grant
// early, and that it never lives past its time or grows past its bound. The HTTP side (refunds,
// deletions, logouts) is in tests/api/track-delivery.test.ts and stripe-payments.test.ts.

const user = (changes: Partial<SessionUser> = {}): SessionUser => ({
  id: 7,
  email: 'fan@example.org',
  passwordHash: 'x',
  firstName: 'A',
  lastName: 'Fan',
  isEmailVerified: true,
  isAdmin: false,
  deletedAt: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  ...changes,
});

function clock() {
  let time = 1_000_000;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

describe('stream grants', () => {
  it('remembers a grant for its session, user and track only', () => {
    const grants = streamGrants();
    grants.put('session-a', user(), 1, 'r1.mp3');
    expect(grants.get('session-a', user(), 1)).toBe('r1.mp3');
    expect(grants.get('session-a', user(), 2)).toBeUndefined();
    expect(grants.get('session-b', user(), 1)).toBeUndefined();
  });

  it('is missed once the user is no longer who it was granted to', () => {
    const grants = streamGrants();
    for (const changed of [
      { isAdmin: true },
      { isEmailVerified: false },
      { email: 'someone-else@example.org' },
      { id: 8 },
    ]) {
      grants.put('session-a', user({ isAdmin: false }), 1, 'r1.mp3');
      expect(grants.get('session-a', user(changed), 1), JSON.stringify(changed)).toBeUndefined();
      // ... and dropped, not kept for the user it was made for.
      expect(grants.get('session-a', user(), 1), JSON.stringify(changed)).toBeUndefined();
    }
    // The address is compared as purchases are: without case.
    grants.put('session-a', user(), 1, 'r1.mp3');
    expect(grants.get('session-a', user({ email: 'Fan@Example.org' }), 1)).toBe('r1.mp3');
  });

  it('expires after its time', () => {
    const time = clock();
    const grants = streamGrants({ ttlMs: 30_000, now: time.now });
    grants.put('session-a', user(), 1, 'r1.mp3');
    time.advance(29_999);
    expect(grants.get('session-a', user(), 1)).toBe('r1.mp3');
    time.advance(1);
    expect(grants.get('session-a', user(), 1)).toBeUndefined();
    expect(grants.size).toBe(0);
  });

  it('forgets one grant, a session, or everything', () => {
    const grants = streamGrants();
    for (const session of ['session-a', 'session-b']) {
      for (const track of [1, 2]) grants.put(session, user(), track, `r${track}.mp3`);
    }
    grants.forget('session-a', 1);
    expect(grants.get('session-a', user(), 1)).toBeUndefined();
    expect(grants.get('session-a', user(), 2)).toBe('r2.mp3');
    grants.forgetSession('session-a');
    expect(grants.get('session-a', user(), 2)).toBeUndefined();
    expect(grants.get('session-b', user(), 1)).toBe('r1.mp3');
    grants.clear();
    expect(grants.size).toBe(0);
  });

  it('holds at most its bound, dropping the oldest first', () => {
    const grants = streamGrants({ maxEntries: 3 });
    for (const track of [1, 2, 3, 4]) grants.put('session-a', user(), track, `r${track}.mp3`);
    expect(grants.size).toBe(3);
    expect(grants.get('session-a', user(), 1)).toBeUndefined();
    expect(grants.get('session-a', user(), 4)).toBe('r4.mp3');
  });
});
