import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { statementIdOf, urlGrants } from '../../server/access/url-grants';
import { loadOrCreateKey } from '../../server/infra/security/secret-key';

// The grants in guests' stream and download URLs (server/access/url-grants.ts) and the key that
// signs them (server/infra/security/secret-key.ts): a grant opens what it was signed for, until it
// expires, under the key of the data folder it was made with.

const folders: string[] = [];
const tempFolder = () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-key-'));
  folders.push(folder);
  return folder;
};
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

const track = (trackId: number) => ({ kind: 'track', trackId }) as const;
const album = (fundraiserId: number) => ({ kind: 'album', fundraiserId }) as const;

describe('url grants', () => {
  const key = Buffer.alloc(32, 7);
  let now = Date.parse('2026-03-01T12:00:00Z');
  const grants = urlGrants(key, () => now);
  const until = new Date('2026-03-02T12:00:00Z');

  it('opens what it was signed for, until it expires', () => {
    const grant = grants.sign(track(5), 42, until);
    expect(grant).toMatch(/^42\.\d+\.[A-Za-z0-9_-]{43}$/);
    expect(grants.check(grant, track(5))).toEqual({ ok: true, purchaseId: 42 });
    now = until.getTime() - 1;
    expect(grants.check(grant, track(5)).ok).toBe(true);
    now = until.getTime();
    expect(grants.check(grant, track(5))).toEqual({ ok: false, reason: 'expired' });
    now = Date.parse('2026-03-01T12:00:00Z');
  });

  it('opens nothing else: another track, an album of the same number, a changed purchase or date', () => {
    const grant = grants.sign(track(5), 42, until);
    const [purchase, expires, signature] = grant.split('.') as [string, string, string];
    const invalid = { ok: false, reason: 'invalid' };
    expect(grants.check(grant, track(6))).toEqual(invalid);
    expect(grants.check(grant, album(5))).toEqual(invalid);
    expect(grants.check(`43.${expires}.${signature}`, track(5))).toEqual(invalid);
    expect(grants.check(`${purchase}.${Number(expires) + 1}.${signature}`, track(5))).toEqual(invalid);
    // An expired date on a forged grant says nothing about it but that it is not valid.
    expect(grants.check(`${purchase}.1.${signature}`, track(5))).toEqual(invalid);
    for (const garbage of ['', '42', `${grant}=`, `042.${expires}.${signature}`, grant.toUpperCase()]) {
      expect(grants.check(garbage, track(5))).toEqual(invalid);
    }
  });

  it("opens a year-end statement's link for that donor's statement of that year only (issue 26)", () => {
    const statement = { id: 7, email: 'donor@example.org', year: 2025 };
    const token = grants.signStatement(statement, until);
    expect(statementIdOf(token)).toBe(7);
    expect(grants.checkStatement(token, statement)).toBe('ok');
    // The address as stored is lower-cased: one typed otherwise is the same donor.
    expect(grants.checkStatement(token, { ...statement, email: 'Donor@Example.org' })).toBe('ok');
    for (const other of [{ year: 2024 }, { email: 'someone@example.org' }, { id: 8 }]) {
      expect(grants.checkStatement(token, { ...statement, ...other })).toBe('invalid');
    }
    // A purchase grant is never a statement's, nor the other way round, whatever their numbers.
    expect(grants.checkStatement(grants.sign(album(2025), 7, until), statement)).toBe('invalid');
    expect(grants.check(token, album(2025))).toEqual({ ok: false, reason: 'invalid' });
    now = until.getTime();
    expect(grants.checkStatement(token, statement)).toBe('expired');
    now = Date.parse('2026-03-01T12:00:00Z');
    expect(statementIdOf('not-a-token')).toBeNull();
  });

  it('holds only under the key it was signed with', () => {
    const grant = grants.sign(album(3), 1, until);
    expect(urlGrants(Buffer.alloc(32, 8), () => now).check(grant, album(3))).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('the signing key', () => {
  it('is made once per data folder, readable by its owner only, and the same for every process after', () => {
    const file = path.join(tempFolder(), 'nested', 'url-grants.key');
    const first = loadOrCreateKey(file);
    expect(first).toHaveLength(32);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadOrCreateKey(file).equals(first)).toBe(true);
    // Nothing of the making is left beside it.
    expect(fs.readdirSync(path.dirname(file))).toEqual(['url-grants.key']);
    expect(loadOrCreateKey(path.join(tempFolder(), 'url-grants.key')).equals(first)).toBe(false);
  });

  it('refuses a key file cut short rather than sign with it', () => {
    const file = path.join(tempFolder(), 'url-grants.key');
    fs.writeFileSync(file, Buffer.alloc(5));
    expect(() => loadOrCreateKey(file)).toThrow(/32-byte key/);
  });
});
