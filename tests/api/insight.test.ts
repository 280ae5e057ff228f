import { describe, expect, it } from 'vitest';
import { fundraiserInsightSchema } from '../../shared/answers/insight';
import { fundraiserSchema } from '../../shared/answers/fundraisers';
import { siteCalendarDate } from '../../shared/site-dates';
import { donate } from '../fixtures/donations';
import { createFundraiser } from '../fixtures/fundraisers';
import { verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// Issue 29 (DESIGN.md wave 3, "insight"): a fundraiser's days, as the owner's dashboard reads them.
// The money is the journal's, to the cent; the counts are what the test did.

const server = useTestServer();

describe("a fundraiser's insight", () => {
  it('gives each day of the period, with what was raised and counted, for its owner only', async () => {
    const owner = await verifiedUser(server, 'insight@example.org');
    const fundraiser = await createFundraiser(owner, { publish: true });
    await donate(server, { fundraiserId: fundraiser.id, email: 'a@example.org', donationCents: 1500, tipCents: 200 });
    await donate(server, { fundraiserId: fundraiser.id, email: 'b@example.org', donationCents: 2500, coverFees: true });
    for (const kind of ['view', 'view', 'view', 'play']) {
      await server.client().post(`/api/fundraisers/${fundraiser.id}/embed-events?kind=${kind}`);
    }
    // A payment of yesterday, as the journal keeps it (rows are only ever added).
    server.sqlite
      .prepare(
        `insert into money_journal (provider_id, kind, fundraiser_id, charity_ein, charity_cents, occurred_at)
         values ('pi_yesterday', 'charge', ?, '530196605', 1200, ?)`,
      )
      .run(fundraiser.id, Date.now() - 86_400_000);
    const answer = await owner.get(`/api/fundraisers/${fundraiser.id}/insight?days=7`);
    expect(answer.status, answer.text).toBe(200);
    const insight = fundraiserInsightSchema.parse(answer.json);
    const today = siteCalendarDate(Date.now(), server.deps.config.timeZone);
    expect(insight.days).toHaveLength(7);
    expect(insight.days.at(-1)!.date).toBe(today);
    // Days follow each other, one calendar day apart.
    for (const [i, day] of insight.days.entries()) {
      if (i > 0) expect(Date.parse(day.date) - Date.parse(insight.days[i - 1]!.date)).toBe(86_400_000);
    }
    const [yesterday, todays] = insight.days.slice(-2) as [
      (typeof insight.days)[number],
      (typeof insight.days)[number],
    ];
    expect(yesterday).toMatchObject({ raisedCents: 1200, donations: 1 });
    expect(todays.donations).toBe(2);
    expect(todays.embedViews).toBe(3);
    // The money equals the journal's total for the fundraiser, to the cent (fee cover included).
    const total = fundraiserSchema.parse((await owner.get(`/api/fundraisers/${fundraiser.id}`)).json).totalRaised;
    expect(insight.days.reduce((sum, day) => sum + day.raisedCents, 0)).toBe(total);
    expect(insight.sources).toEqual([{ referrer: 'embed', visits: 3 }]);
    // No donor anywhere in the answer.
    expect(answer.text).not.toMatch(/@example\.org|A Fan/);

    // All time starts the day the fundraiser was made.
    const all = fundraiserInsightSchema.parse(
      (await owner.get(`/api/fundraisers/${fundraiser.id}/insight?days=all`)).json,
    );
    expect(all.days.at(-1)!.date).toBe(today);
    expect(all.days.reduce((sum, day) => sum + day.raisedCents, 0)).toBe(total);

    // Others may not look, and a bad period is a clear 400.
    expect((await server.client().get(`/api/fundraisers/${fundraiser.id}/insight`)).status).toBe(401);
    const stranger = await verifiedUser(server, 'insight-stranger@example.org');
    expect((await stranger.get(`/api/fundraisers/${fundraiser.id}/insight?days=x`)).status).toBe(403);
    const bad = await owner.get(`/api/fundraisers/${fundraiser.id}/insight?days=0`);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain('Days must be a whole number from 1 to 3650, or all.');
  });
});
