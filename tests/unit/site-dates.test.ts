import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import {
  canonicalTimeZone,
  formatSiteDate,
  formatSiteTime,
  isTimeZone,
  siteCalendarDate,
  siteCalendarDates,
  startOfSiteDay,
} from '../../shared/site-dates';

// Calendar dates of the site's time zone (SITE_TIME_ZONE): the day a payment was made where the
// site is, whatever zone the machine formatting it is in.

describe('site dates', () => {
  // 01:30 UTC on Nov 27: still the evening of Nov 26 on the US west and east coasts.
  const lateEvening = '2026-11-27T01:30:00.000Z';

  it('writes the day a moment fell on in the zone asked for, not the machine’s', () => {
    expect(formatSiteDate(lateEvening, 'America/Los_Angeles')).toBe('Nov 26, 2026');
    expect(formatSiteDate(lateEvening, 'America/New_York')).toBe('Nov 26, 2026');
    expect(formatSiteDate(lateEvening, 'Asia/Tokyo')).toBe('Nov 27, 2026');
    expect(formatSiteTime(lateEvening, 'America/Los_Angeles')).toBe('5:30 PM PST');
    expect(siteCalendarDate(lateEvening, 'America/Los_Angeles')).toBe('2026-11-26');
    expect(siteCalendarDate(lateEvening, 'UTC')).toBe('2026-11-27');
  });

  it("stores a date without a time as the first moment of that day in the site's zone", () => {
    // Summer time still holds at midnight on the day it ends (Nov 1, 2026, at 2 AM).
    expect(startOfSiteDay('2026-11-01', 'America/Los_Angeles').toISOString()).toBe('2026-11-01T07:00:00.000Z');
    expect(startOfSiteDay('2026-11-02', 'America/Los_Angeles').toISOString()).toBe('2026-11-02T08:00:00.000Z');
    expect(startOfSiteDay('2026-03-08', 'America/Los_Angeles').toISOString()).toBe('2026-03-08T08:00:00.000Z');
    expect(startOfSiteDay('2026-11-27', 'Asia/Tokyo').toISOString()).toBe('2026-11-26T15:00:00.000Z');
    // Where the clocks jump at midnight (Havana, March 8, 2026), the day starts at 1 AM.
    const havana = startOfSiteDay('2026-03-08', 'America/Havana');
    expect(siteCalendarDate(havana, 'America/Havana')).toBe('2026-03-08');
    expect(siteCalendarDate(havana.getTime() - 1, 'America/Havana')).toBe('2026-03-07');
    for (const zone of ['America/Los_Angeles', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Asia/Kolkata']) {
      for (const day of ['2026-01-01', '2026-03-08', '2026-06-30', '2026-11-01', '2026-12-31']) {
        const start = startOfSiteDay(day, zone);
        expect(formatSiteDate(start, zone), `${zone} ${day}`).toBe(formatSiteDate(`${day}T12:00:00Z`, 'UTC'));
        expect(siteCalendarDate(start.getTime() - 1, zone) < day, `${zone} ${day}`).toBe(true);
      }
    }
  });

  it('dates many moments in a row (a CSV) as it dates each one, across clock changes', () => {
    for (const zone of ['America/Los_Angeles', 'America/Havana', 'Australia/Lord_Howe']) {
      const dateOf = siteCalendarDates(zone);
      // Newest first, as the CSV goes, 37 minutes apart over a year: every day and clock change.
      for (let at = Date.UTC(2027, 0, 1); at > Date.UTC(2026, 0, 1); at -= 37 * 60 * 1000) {
        if (dateOf(at) !== siteCalendarDate(at, zone)) throw new Error(`${zone}: ${new Date(at).toISOString()}`);
      }
    }
  });

  it('knows IANA zones from offsets and made-up names', () => {
    for (const zone of ['America/Los_Angeles', 'America/New_York', 'UTC', 'Europe/Berlin']) {
      expect(isTimeZone(zone), zone).toBe(true);
    }
    for (const zone of ['+05:00', 'Mars/Olympus', 'Pacific Time', '', 'America/Los_Angeles ']) {
      expect(isTimeZone(zone), zone).toBe(false);
    }
    expect(canonicalTimeZone('US/Pacific')).toBe('America/Los_Angeles');
  });

  it('is configured by SITE_TIME_ZONE, checked at start-up', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).timeZone).toBe('America/Los_Angeles');
    expect(loadConfig({ NODE_ENV: 'test', SITE_TIME_ZONE: 'America/New_York' }).timeZone).toBe('America/New_York');
    expect(() => loadConfig({ NODE_ENV: 'test', SITE_TIME_ZONE: 'Mars/Olympus' })).toThrow(
      'SITE_TIME_ZONE: must be an IANA time zone',
    );
  });
});
