import { describe, expect, it } from 'vitest';
import { moneyPlans, musicPlans, siteAndAccountPlans } from '../fixtures/fuzz-plans';
import { fuzzRoutes } from '../fixtures/fuzz-suite';
import { appRoutes, middlewareAndCatchAlls, tableDrift } from '../fixtures/route-table';

// Issue 14, fuzzing (tests/fixtures/fuzz-suite.ts): the site, accounts, uploads and pages. The
// artists and fundraisers, and the money routes, are fuzzed in files of their own that run
// beside this one; this file checks that the three together leave no route out.

describe('fuzzing the site, accounts, uploads and pages', () => {
  const server = fuzzRoutes('site and accounts', siteAndAccountPlans);

  it('has a plan for every route of the app, and only those', () => {
    const planned = [...Object.keys(siteAndAccountPlans), ...Object.keys(musicPlans), ...Object.keys(moneyPlans)];
    expect(tableDrift(appRoutes(server.deps), planned, middlewareAndCatchAlls)).toEqual([]);
    expect(new Set(planned).size).toBe(planned.length);
  });
});
