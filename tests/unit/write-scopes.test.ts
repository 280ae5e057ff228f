import { describe, expect, it } from 'vitest';
import { scopesWritten } from '../../server/db/changes';

// Which caches a statement empties (server/db/changes.ts): counting too little shows stale pages,
// counting too much empties every cached page on a page view (issue 28: an embed's beacon).

describe('scopesWritten', () => {
  it("counts an upsert's own table only, not its `do update set` clause", () => {
    const upsert = (table: string) =>
      `insert into "${table}" ("day", "kind", "name", "count") values (?, ?, ?, ?) on conflict ("day", "kind", "name") do update set "count" = "${table}"."count" + 1`;
    expect(scopesWritten(upsert('analytics_daily_counts'))).toEqual([]);
    expect(scopesWritten(upsert('fundraiser_daily_counts'))).toEqual([]);
    expect(scopesWritten(upsert('fundraisers'))).toEqual(['public']);
  });

  it('counts plain writes to their tables', () => {
    expect(scopesWritten('update "fundraisers" set "name" = ?')).toEqual(['public']);
    expect(scopesWritten('delete from sessions where id = ?')).toEqual(['sessions']);
    expect(scopesWritten('insert into throttle_events (bucket) values (?)')).toEqual([]);
    expect(scopesWritten('select * from fundraisers')).toEqual([]);
  });
});
