import { describe, expect, it } from 'vitest';
import { apiPaths } from '../../shared/api-paths';
import { useFakeClientBuild } from '../fixtures/fake-client-build';
import { createFundraiser } from '../fixtures/fundraisers';
import { adminClient, type TestClient, verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// A page's first load (issue 13): the HTML of the pages people arrive on carries the API answers
// their first render reads, made by the app itself for this very caller, so the page draws without
// a round trip per answer and shows exactly what the API would have shown that caller.

const server = useTestServer({ CLIENT_DIST_DIR: useFakeClientBuild() });

async function firstAnswers(client: TestClient, path: string) {
  const page = await client.get(path);
  const script = /<script type="application\/json" id="first-answers">(.*?)<\/script>/s.exec(page.text)?.[1];
  return { page, answers: script === undefined ? {} : (JSON.parse(script) as Record<string, unknown>) };
}

describe("a page's first answers", () => {
  it('are the API answers of the fundraiser page, for this caller', async () => {
    const owner = await verifiedUser(server, 'first-owner@example.org');
    const fundraiser = await createFundraiser(owner, { publish: true, details: { name: 'First Light' } });
    const slug = fundraiser.urlSlug!;
    const path = apiPaths.fundraiser(slug);

    const guest = server.client();
    const { page, answers } = await firstAnswers(guest, `/projects/${slug}`);
    expect(page.status).toBe(200);
    expect(Object.keys(answers).sort()).toEqual([apiPaths.site, path].sort());
    expect(answers[path]).toEqual((await guest.get(path)).json);
    expect(answers[path]).toMatchObject({ name: 'First Light', canManage: false });
    // The guest is not asked about: no session, no user answer.
    expect(answers[apiPaths.user]).toBeUndefined();

    const mine = await firstAnswers(owner, `/projects/${slug}`);
    expect(mine.answers[path]).toMatchObject({ canManage: true });
    expect(mine.answers[apiPaths.user]).toMatchObject({ email: 'first-owner@example.org' });
    // Personal answers: no shared cache may keep the page.
    expect(mine.page.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('answer the home page and browse, whose lists the page reads first', async () => {
    const owner = await verifiedUser(server, 'lists@example.org');
    await createFundraiser(owner, { publish: true, details: { name: 'Listed Album' } });
    const home = await firstAnswers(server.client(), '/');
    expect(home.page.status).toBe(200);
    expect(home.answers[apiPaths.featuredFundraisers]).toEqual(
      (await server.client().get(apiPaths.featuredFundraisers)).json,
    );
    expect(home.answers[apiPaths.featuredCharities]).toBeDefined();

    const browse = await firstAnswers(server.client(), '/browse/projects?searchTerm=%20Listed%20&page=0');
    const searchPath = apiPaths.fundraiserSearch({ searchTerm: 'Listed', genre: '', charityEin: '', page: 0 });
    expect(browse.answers[searchPath]).toMatchObject({ totalCount: 1 });
    expect(Object.keys(browse.answers)).toContain(searchPath);
  });

  it('give the donate pages the payment set-up, so the form knows its card at once', async () => {
    const owner = await verifiedUser(server, 'donate-first@example.org');
    const fundraiser = await createFundraiser(owner, { publish: true, details: { name: 'Given Config' } });
    const config = (await server.client().get(apiPaths.paymentConfig)).json;
    expect(config).toMatchObject({ provider: 'test' });
    for (const path of [`/projects/${fundraiser.urlSlug!}/donate`, '/support/donate']) {
      const { answers } = await firstAnswers(server.client(), path);
      expect(answers[apiPaths.paymentConfig]).toEqual(config);
    }
    // The fundraiser page itself takes no payment: it is not given the set-up.
    const { answers } = await firstAnswers(server.client(), `/projects/${fundraiser.urlSlug!}`);
    expect(answers[apiPaths.paymentConfig]).toBeUndefined();
  });

  it('leave out what the caller may not see, so the page asks and shows the refusal itself', async () => {
    const owner = await verifiedUser(server, 'drafts@example.org');
    const draft = await createFundraiser(owner, { details: { name: 'Still a Draft' } });
    const { answers } = await firstAnswers(server.client(), `/projects/${draft.id}`);
    expect(Object.keys(answers)).toEqual([apiPaths.site]);
    // Its owner gets it, and an admin too.
    expect(
      (await firstAnswers(owner, `/projects/${draft.id}`)).answers[apiPaths.fundraiser(String(draft.id))],
    ).toMatchObject({
      name: 'Still a Draft',
    });
    const admin = await adminClient(server, 'first-admin@example.org');
    expect(
      (await firstAnswers(admin, `/projects/${draft.id}`)).answers[apiPaths.fundraiser(String(draft.id))],
    ).toBeDefined();
  });

  it('cannot end their script early, whatever a name holds', async () => {
    const owner = await verifiedUser(server, 'hostile@example.org');
    const name = '</script><script>alert(1)</script><!--';
    const fundraiser = await createFundraiser(owner, { publish: true, details: { name, description: 'x\u2028y' } });
    const { page, answers } = await firstAnswers(server.client(), `/projects/${fundraiser.urlSlug}`);
    expect(page.text).not.toContain('<script>alert(1)');
    expect(page.text.match(/<\/script>/g)).toHaveLength(1);
    expect(answers[apiPaths.fundraiser(fundraiser.urlSlug!)]).toMatchObject({ name, description: 'x\u2028y' });
  });

  it('clear a session that ended elsewhere, so the page does not ask about it', async () => {
    const user = await verifiedUser(server, 'ended@example.org');
    // The session ends (a logout, a password change elsewhere), and its cookie comes back later.
    const stale = user.cookieHeader();
    await user.post('/api/logout');
    const page = await fetch(`${server.baseUrl}/`, { headers: { cookie: stale } });
    const html = await page.text();
    expect(html).not.toContain('"/api/user"');
    const cleared = page.headers.getSetCookie();
    expect(
      cleared.some((cookie) => /^soundcause_session=;/.test(cookie) || /soundcause_session=.*max-age=0/i.test(cookie)),
    ).toBe(true);
  });
});
