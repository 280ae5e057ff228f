import { beforeAll, describe, expect, it } from 'vitest';
import { purchaseLinkSchema, transactionSummarySchema } from '../../shared/answers/donations';
import { type Fundraiser } from '../../shared/answers/fundraisers';
import { fileForm, wav } from '../fixtures/audio';
import { type Cast, createCast, type Role, ROLES, statementToken } from '../fixtures/cast';
import { startDonation } from '../fixtures/donations';
import { testCard } from '../fixtures/test-cards';
import { editFormOf, legacyFormOf } from '../fixtures/fundraisers';
import { imageForm, png } from '../fixtures/images';
import { appRoutes, fillPath, middlewareAndCatchAlls, tableDrift } from '../fixtures/route-table';
import { registerUser, type SendOptions, strongPassword, type TestClient } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// Issue 14: who may do what, for every route the app has (read from its own route table) and
// every kind of caller, written down once below. Spec part 1 section 6 and part 2 section 6, with
// DESIGN.md's contract details: guests get 401 where an account is needed; a verified email is
// needed to create artists and fundraisers (403); a draft is 404 to all but its owner and admins;
// someone else's public artist or fundraiser is 403 to change; non-admins change drafts only;
// full tracks and the album are for owners, buyers and admins; admin calls are 403 to non-admins.
//
// Every refusal (401, 403, 404) is checked twice: with the valid request, and with a broken body
// and query. Permission comes before validation, so the broken request is refused the same way
// and tells a caller nothing about what the body should have been.

const server = useTestServer();
let cast: Cast;

type Expected = Record<Role, number>;

/** What one cell sends, its path parameters filled in. */
type Prepared = { params?: Record<string, string | number | undefined>; query?: string; send?: SendOptions };

type Context = { cast: Cast; role: Role; client: TestClient; email: string };

type Case = {
  case?: string;
  /**
   * The path's parameters and the request, made for each cell afresh (so a cell may make the
   * fundraiser it deletes). A state-changing request carries a valid body, so that what is
   * checked is the permission, not the validation.
   */
  prepare?: (context: Context) => Prepared | Promise<Prepared>;
  /** Calls that change or end the caller's own account run on a fresh account of the role's kind. */
  freshAccount?: boolean;
  /** The body names the thing asked about (a wizard save): it must be read before anything is known. */
  bodyNamesTheTarget?: boolean;
  expect: Expected;
};

const everyone = (status: number): Expected => ({
  guest: status,
  unverified: status,
  stranger: status,
  owner: status,
  buyer: status,
  admin: status,
});
const signedIn = (status: number): Expected => ({ ...everyone(status), guest: 401 });
const adminOnly = (status: number): Expected => ({ ...everyone(403), guest: 401, admin: status });

const json = (body: unknown): Prepared => ({ send: { json: body } });
const published = (c: Context) => ({ params: { id: c.cast.published.id } });
const draft = (c: Context) => ({ params: { id: c.cast.draft.id } });

function musicOf(fundraiser: Fundraiser) {
  return {
    id: fundraiser.id,
    albumCover: fundraiser.albumCover,
    previewTrackName: fundraiser.previewTrackName ?? '',
    previewTrackFile: fundraiser.previewTrackFile,
    trackList: fundraiser.tracksList.map((track) => ({ id: track.id, name: track.name, file: track.uploadId })),
  };
}

function saveOf(fundraiser: Fundraiser) {
  return {
    id: fundraiser.id,
    artistId: fundraiser.artistId,
    charityEin: fundraiser.charityEin,
    donationMinimumCents: fundraiser.minimumDonation,
    fundraisingGoalCents: fundraiser.donationGoal,
  };
}

/** The legacy form as the edit page sends it, with an album zip of one song. */
function legacyForm(fundraiser: Fundraiser): SendOptions {
  return { multipart: legacyFormOf(fundraiser) };
}

const artistForm = (artist: Cast['artist']) => ({
  name: artist.name,
  description: artist.description,
  website: '',
  profileImage: artist.profileImage,
});

let unique = 0;
const uniqueEmail = (what: string) => `matrix-${what}-${++unique}@example.org`;

const donationTo = (cast: Cast) => ({
  name: 'A Fan',
  email: uniqueEmail('fan'),
  donationCents: 1000,
  tipCents: 0,
  projectId: cast.published.id,
});

/**
 * A download format's preparation, which one route answers for GET and POST (`.on(['GET', 'POST'],
 * …)`): the same refusals; where GET answers 200, POST (which asks for the preparation) 202.
 */
const sameForGetAndPost = (path: string, cases: Case | Case[]) => {
  const accepted = (expected: Expected): Expected =>
    Object.fromEntries(
      Object.entries(expected).map(([role, status]) => [role, status === 200 ? 202 : status]),
    ) as Expected;
  const forPost = (one: Case): Case => ({ ...one, expect: accepted(one.expect) });
  return {
    [`GET ${path}`]: cases,
    [`POST ${path}`]: Array.isArray(cases) ? cases.map(forPost) : forPost(cases),
  };
};

/**
 * The success page's album download URL for the buyer's payment (its grant is the permission),
 * looked up once per cast: the lookup is limited per payment, as a card-testing script's would be.
 */
const successPageDownloads = new WeakMap<Cast, Promise<string>>();
function successPageDownload(cast: Cast): Promise<string> {
  let url = successPageDownloads.get(cast);
  if (!url) {
    url = cast.server
      .client()
      .get(`/api/transactions/query?paymentIntentId=${cast.bought.paymentIntentId}`)
      .then((lookup) => transactionSummarySchema.parse(lookup.json).downloadUrl!);
    successPageDownloads.set(cast, url);
  }
  return url;
}

/** An album in Your music (DESIGN.md: 404 to callers with no access), with more path parameters. */
const libraryAlbumCases = (params: Record<string, string> = {}): Case[] => [
  {
    case: 'published',
    prepare: ({ cast }) => ({ params: { id: cast.published.id, ...params } }),
    expect: { guest: 401, unverified: 404, stranger: 404, owner: 200, buyer: 200, admin: 200 },
  },
  {
    case: 'draft',
    prepare: ({ cast }) => ({ params: { id: cast.draft.id, ...params } }),
    expect: { guest: 401, unverified: 404, stranger: 404, owner: 200, buyer: 404, admin: 200 },
  },
];

/** A full track's own calls (its stream's rules: issue 27's downloads are the same music). */
const fullTrackCases = (format?: string): Case[] => [
  {
    case: 'published',
    prepare: ({ cast }) => ({ params: { id: cast.published.tracksList[0]!.id, format } }),
    expect: { guest: 401, unverified: 403, stranger: 403, owner: 200, buyer: 200, admin: 200 },
  },
  {
    case: 'draft',
    prepare: ({ cast }) => ({ params: { id: cast.draft.tracksList[0]!.id, format } }),
    expect: { guest: 404, unverified: 404, stranger: 404, owner: 200, buyer: 404, admin: 200 },
  },
  {
    // The receipt page's track grant opens the track's downloads too.
    case: 'granted',
    prepare: async ({ cast }) => {
      const { tracks } = purchaseLinkSchema.parse(
        (await cast.server.client().get(`/api/purchases/${cast.purchaseToken}`)).json,
      );
      const src = new URL(tracks[0]!.src, cast.server.baseUrl);
      const grant = src.searchParams.get('grant')!;
      return { params: { id: cast.published.tracksList[0]!.id, format }, query: `grant=${encodeURIComponent(grant)}` };
    },
    expect: everyone(200),
  },
];

/**
 * The table: route → the expected answer of each role, per case where a route answers about
 * different things (a published fundraiser and a draft). One line per case, read across.
 */
const matrix: Record<string, Case | Case[]> = {
  'GET /api/health': { expect: everyone(200) },
  'GET /api/site': { expect: everyone(200) },

  // Accounts (spec part 1 sections 6 and 7).
  'GET /api/user': { expect: signedIn(200) },
  'POST /api/login': {
    // A signed-in visitor may log in again (the page sends them away; the API starts a new session).
    prepare: ({ cast, role }) => ({
      send: { form: { email: cast.emailOf(role === 'guest' ? 'stranger' : role), password: strongPassword } },
    }),
    expect: everyone(200),
  },
  'POST /api/logout': { expect: everyone(200) },
  'POST /api/register': {
    prepare: () =>
      json({ firstName: 'New', lastName: 'Person', email: uniqueEmail('register'), password: strongPassword }),
    expect: everyone(201),
  },
  'POST /api/verify-email': {
    freshAccount: true,
    prepare: ({ cast, role, email }) =>
      json({ verificationCode: role === 'unverified' ? cast.server.outbox.latestCode(email) : '123456' }),
    // A verified account has nothing to verify: EMAIL_ALREADY_VERIFIED.
    expect: { guest: 401, unverified: 200, stranger: 400, owner: 400, buyer: 400, admin: 400 },
  },
  'POST /api/send-email-verification': {
    freshAccount: true,
    prepare: ({ cast }) => {
      cast.ageCodes();
      return {};
    },
    expect: { guest: 401, unverified: 200, stranger: 400, owner: 400, buyer: 400, admin: 400 },
  },
  'POST /api/password-reset-email': {
    prepare: ({ cast }) => json({ email: cast.emailOf('stranger') }),
    expect: everyone(200),
  },
  'POST /api/password-reset': {
    // The emailed token is the permission, whoever holds it.
    prepare: async ({ cast }) => {
      const victim = uniqueEmail('reset');
      await registerUser(cast.server.client(), victim);
      await cast.server.client().post('/api/password-reset-email', { json: { email: victim } });
      await cast.server.settled();
      return json({ password: 'An0ther!pass', resetToken: await cast.server.outbox.latestResetToken(victim) });
    },
    expect: everyone(200),
  },
  'GET /api/token-user/:token': {
    prepare: ({ cast }) => ({ params: { token: cast.resetToken } }),
    expect: everyone(200),
  },
  'POST /api/user/password': { prepare: () => json({ password: strongPassword }), expect: signedIn(200) },
  'PATCH /api/user': { prepare: () => json({ firstName: 'Test', lastName: 'User' }), expect: signedIn(200) },
  'GET /api/user/email': { expect: signedIn(200) },
  'POST /api/user/email': {
    freshAccount: true,
    prepare: () => json({ email: uniqueEmail('new-address'), password: strongPassword }),
    expect: signedIn(200),
  },
  'POST /api/user/email/verify': {
    freshAccount: true,
    prepare: async ({ cast, client, role }) => {
      if (role === 'guest') return json({ verificationCode: '123456' });
      const newEmail = uniqueEmail('confirmed-address');
      const asked = await client.post('/api/user/email', { json: { email: newEmail, password: strongPassword } });
      if (asked.status !== 200) throw new Error(`email change refused: ${asked.text}`);
      return json({ verificationCode: cast.server.outbox.latestEmailChangeCode(newEmail) });
    },
    expect: signedIn(200),
  },
  'DELETE /api/user/email': { expect: signedIn(200) },
  'DELETE /api/user': { freshAccount: true, prepare: () => json({ password: strongPassword }), expect: signedIn(200) },
  'POST /api/mailing-list': { prepare: () => json({ email: uniqueEmail('list') }), expect: everyone(200) },
  'GET /api/admin/mailing-list.csv': { expect: adminOnly(200) },
  'POST /api/analytics/pageview': { prepare: () => json({ path: '/browse' }), expect: everyone(204) },
  'POST /api/analytics/event': { prepare: () => json({ name: 'Submit' }), expect: everyone(204) },

  // Artists (spec part 1 section 6: create needs a verified email; owners and admins change them).
  'GET /api/artists/user': { expect: signedIn(200) },
  'POST /api/artists/new': {
    prepare: async ({ cast, role }) =>
      json({ name: 'A New Band', description: 'New songs.', profileImage: await cast.imageOf(role) }),
    expect: { guest: 401, unverified: 403, stranger: 201, owner: 201, buyer: 201, admin: 201 },
  },
  'GET /api/artists/search': { expect: everyone(200) },
  'GET /api/artists/slug/:slug': [
    { case: 'published', prepare: ({ cast }) => ({ params: { slug: cast.artist.urlSlug } }), expect: everyone(200) },
    {
      case: 'draft',
      prepare: ({ cast }) => ({ params: { slug: cast.draftArtist.urlSlug } }),
      expect: { guest: 404, unverified: 404, stranger: 404, owner: 200, buyer: 404, admin: 200 },
    },
  ],
  'GET /api/artists/:id': [
    { case: 'published', prepare: ({ cast }) => ({ params: { id: cast.artist.id } }), expect: everyone(200) },
    {
      case: 'draft',
      prepare: ({ cast }) => ({ params: { id: cast.draftArtist.id } }),
      expect: { guest: 404, unverified: 404, stranger: 404, owner: 200, buyer: 404, admin: 200 },
    },
  ],
  'PATCH /api/artists/:id/update': [
    {
      case: 'published',
      prepare: ({ cast }) => ({ params: { id: cast.artist.id }, send: { json: artistForm(cast.artist) } }),
      expect: { guest: 401, unverified: 403, stranger: 403, owner: 200, buyer: 403, admin: 200 },
    },
    {
      case: 'draft',
      prepare: ({ cast }) => ({ params: { id: cast.draftArtist.id }, send: { json: artistForm(cast.draftArtist) } }),
      expect: { guest: 401, unverified: 404, stranger: 404, owner: 200, buyer: 404, admin: 200 },
    },
  ],
  'PATCH /api/artists/:id/publish': [
    {
      case: 'published',
      prepare: ({ cast }) => ({ params: { id: cast.artist.id } }),
      expect: { guest: 401, unverified: 403, stranger: 403, owner: 200, buyer: 403, admin: 200 },
    },
    {
      case: 'draft',
      prepare: async ({ cast }) => ({ params: { id: (await cast.freshArtist()).id } }),
      expect: { guest: 401, unverified: 404, stranger: 404, owner: 200, buyer: 404, admin: 200 },
    },
  ],
  'DELETE /api/artists/:id': [
    {
      case: 'published',
      prepare: async ({ cast }) => ({ params: { id: (await cast.freshArtist(true)).id } }),
      expect: { guest: 401, unverified: 403, stranger: 403, owner: 200, buyer: 403, admin: 200 },
    },
    {
      case: 'draft',
      prepare: async ({ cast }) => ({ params: { id: (await cast.freshArtist()).id } }),
      expect: { guest: 401, unverified: 404, stranger: 404, owner: 200, buyer: 404, admin: 200 },
    },
  ],

  // Fundraisers (spec part 2 sections 4 and 6).
  'GET /api/fundraisers/search': { expect: everyone(200) },
  'GET /api/fundraisers/user': { expect: signedIn(200) },
  'GET /api/fundraisers/featured': { expect: everyone(200) },
  'PUT /api/admin/projects/featured': { prepare: ({ cast }) => json([cast.published.id]), expect: adminOnly(200) },
  'GET /api/fundraisers/artist/:artistId': {
    prepare: ({ cast }) => ({ params: { artistId: cast.artist.id } }),
    expect: everyone(200),
  },
  'GET /api/fundraisers/slug/:slug': [
    {
      case: 'published',
      prepare: ({ cast }) => ({ params: { slug: cast.published.urlSlug! } }),
      expect: everyone(200),
    },
    {
      case: 'draft',
      prepare: ({ cast }) => ({ params: { slug: cast.draft.urlSlug! } }),
      expect: { guest: 404, unverified: 404, stranger: 404, owner: 200, buyer: 404, admin: 200 },
    },
  ],
  'POST /api/fundraisers/save': [
    {
      case: 'new draft',
      prepare: async ({ cast, role }) =>
        json({
          artistId: await cast.artistOf(role),
          charityEin: cast.charityEin,
          donationMinimumCents: 500,
          fundraisingGoalCents: 100_000,
        }),
      expect: { guest: 401, unverified: 403, stranger: 201, owner: 201, buyer: 201, admin: 201 },
    },
    {
      case: 'draft',
      bodyNamesTheTarget: true,
      prepare: ({ cast }) => json(saveOf(cast.draft)),
      expect: { guest: 401, unverified: 403, stranger: 404, owner: 200, buyer: 404, admin: 200 },
    },
    {
      case: 'published',
      bodyNamesTheTarget: true,
      prepare: ({ cast }) => json(saveOf(cast.published)),
      expect: { guest: 401, unverified: 403, stranger: 403, owner: 403, buyer: 403, admin: 200 },
    },
  ],
  'PATCH /api/fundraisers/music': [
    {
      case: 'draft',
      bodyNamesTheTarget: true,
      prepare: ({ cast }) => json(musicOf(cast.draft)),
      expect: { guest: 401, unverified: 403, stranger: 404, owner: 200, buyer: 404, admin: 200 },
    },
    {
      case: 'published',
      bodyNamesTheTarget: true,
      prepare: ({ cast }) => json(musicOf(cast.published)),
      expect: { guest: 401, unverified: 403, stranger: 403, owner: 403, buyer: 403, admin: 200 },
    },
  ],
  'GET /api/fundraisers/:id': [
    { case: 'published', prepare: published, expect: everyone(200) },
    {
      case: 'draft',
      prepare: draft,
      expect: { guest: 404, unverified: 404, stranger: 404, owner: 200, buyer: 404, admin: 200 },
    },
  ],
  'GET /api/fundraisers/:id/transactions': [
    {
      case: 'published',
      prepare: published,
      expect: { guest: 401, unverified: 403, stranger: 403, owner: 200, buyer: 403, admin: 200 },
    },
    {
      case: 'draft',
      prepare: draft,
      expect: { guest: 401, unverified: 404, stranger: 404, owner: 200, buyer: 404, admin: 200 },
    },
  ],
  'GET /api/fundraisers/:id/preview': [
    { case: 'published', prepare: published, expect: everyone(200) },
    {
      case: 'draft',
      prepare: draft,
      expect: { guest: 404, unverified: 404, stranger: 404, owner: 200, buyer: 404, admin: 200 },
    },
  ],
  'GET /api/fundraisers/:id/download': [
    {
      case: 'published',
      prepare: published,
      expect: { guest: 401, unverified: 403, stranger: 403, owner: 200, buyer: 200, admin: 200 },
    },
    {
      // The success page's download: the grant in its URL is the permission, whoever holds it.
      case: 'granted',
      prepare: async ({ cast }) => {
        const lookup = await cast.server
          .client()
          .get(`/api/transactions/query?paymentIntentId=${cast.bought.paymentIntentId}`);
        const url = new URL(transactionSummarySchema.parse(lookup.json).downloadUrl!, cast.server.baseUrl);
        return { params: { id: cast.published.id }, query: url.search.slice(1) };
      },
      expect: everyone(200),
    },
    {
      case: 'draft',
      prepare: draft,
      expect: { guest: 401, unverified: 404, stranger: 404, owner: 200, buyer: 404, admin: 200 },
    },
  ],
  'PATCH /api/fundraisers/:id/publish': [
    {
      case: 'published',
      prepare: ({ cast }) => ({ params: { id: cast.published.id }, send: { json: { publishArtist: true } } }),
      expect: { guest: 401, unverified: 403, stranger: 403, owner: 200, buyer: 403, admin: 200 },
    },
    {
      case: 'draft',
      prepare: async ({ cast }) => ({
        params: { id: (await cast.freshDraft()).id },
        send: { json: { publishArtist: true } },
      }),
      expect: { guest: 401, unverified: 404, stranger: 404, owner: 200, buyer: 404, admin: 200 },
    },
  ],
  'PATCH /api/fundraisers/:id/update': [
    {
      case: 'published',
      prepare: ({ cast }) => ({ params: { id: cast.published.id }, send: { json: editFormOf(cast.published) } }),
      expect: { guest: 401, unverified: 403, stranger: 403, owner: 403, buyer: 403, admin: 200 },
    },
    {
      case: 'draft',
      prepare: ({ cast }) => ({ params: { id: cast.draft.id }, send: { json: editFormOf(cast.draft) } }),
      expect: { guest: 401, unverified: 404, stranger: 404, owner: 200, buyer: 404, admin: 200 },
    },
    {
      // Spec part 2 section 6: upgrading a legacy v1 fundraiser to streaming is for admins, even
      // on the owner's own draft.
      case: 'draft legacy',
      prepare: async ({ cast }) => {
        const legacy = await cast.freshLegacyDraft();
        return { params: { id: legacy.id }, send: { json: editFormOf(legacy) } };
      },
      expect: { guest: 401, unverified: 404, stranger: 404, owner: 403, buyer: 404, admin: 200 },
    },
  ],
  'PATCH /api/fundraisers/:id/updatev1': [
    {
      case: 'published legacy',
      prepare: ({ cast }) => ({ params: { id: cast.legacyPublished.id }, send: legacyForm(cast.legacyPublished) }),
      expect: { guest: 401, unverified: 403, stranger: 403, owner: 403, buyer: 403, admin: 200 },
    },
    {
      case: 'draft legacy',
      prepare: ({ cast }) => ({ params: { id: cast.legacyDraft.id }, send: legacyForm(cast.legacyDraft) }),
      expect: { guest: 401, unverified: 404, stranger: 404, owner: 200, buyer: 404, admin: 200 },
    },
  ],
  'DELETE /api/fundraisers/:id': [
    {
      case: 'published',
      prepare: async ({ cast }) => ({ params: { id: (await cast.freshPublished()).id } }),
      expect: { guest: 401, unverified: 403, stranger: 403, owner: 200, buyer: 403, admin: 200 },
    },
    {
      case: 'draft',
      prepare: async ({ cast }) => ({ params: { id: (await cast.freshDraft()).id } }),
      expect: { guest: 401, unverified: 404, stranger: 404, owner: 200, buyer: 404, admin: 200 },
    },
  ],

  // Audio (DESIGN.md section 4: previews public, full tracks for buyers, owners and admins).
  'GET /api/tracks/:id/preview': [
    {
      case: 'published',
      prepare: ({ cast }) => ({ params: { id: cast.published.tracksList[0]!.id } }),
      expect: everyone(200),
    },
    {
      case: 'draft',
      prepare: ({ cast }) => ({ params: { id: cast.draft.tracksList[0]!.id } }),
      expect: { guest: 404, unverified: 404, stranger: 404, owner: 200, buyer: 404, admin: 200 },
    },
  ],
  // Download formats (issue 27): whoever may hear the full track or album may take it home in any format.
  ...sameForGetAndPost('/api/tracks/:id/formats/:format', fullTrackCases('original')),
  'GET /api/tracks/:id/download': fullTrackCases(),
  ...sameForGetAndPost('/api/music-library/album/:id/formats/:format', libraryAlbumCases({ format: 'original' })),
  'GET /api/music-library/album/:id/download': libraryAlbumCases(),
  'GET /api/fundraisers/:id/formats': [
    { case: 'published', prepare: published, expect: everyone(200) },
    {
      case: 'draft',
      prepare: draft,
      expect: { guest: 404, unverified: 404, stranger: 404, owner: 200, buyer: 404, admin: 200 },
    },
  ],
  // Issue 28: sharing. Anyone may share a public fundraiser and report its embed; no one a draft,
  // not even its owner (a draft has no public address to share). What it brought is its owner's.
  'POST /api/fundraisers/:id/shares': [
    { case: 'published', prepare: published, expect: everyone(200) },
    { case: 'draft', prepare: draft, expect: everyone(404) },
  ],
  'POST /api/fundraisers/:id/embed-events': [
    {
      case: 'published',
      prepare: ({ cast }) => ({ params: { id: cast.published.id }, query: 'kind=view' }),
      expect: everyone(204),
    },
    {
      case: 'draft',
      prepare: ({ cast }) => ({ params: { id: cast.draft.id }, query: 'kind=view' }),
      expect: everyone(404),
    },
  ],
  // Issue 29: a fundraiser's days, its owner's and admins'.
  'GET /api/fundraisers/:id/insight': [
    {
      case: 'published',
      prepare: published,
      expect: { guest: 401, unverified: 403, stranger: 403, owner: 200, buyer: 403, admin: 200 },
    },
    {
      case: 'draft',
      prepare: draft,
      expect: { guest: 401, unverified: 404, stranger: 404, owner: 200, buyer: 404, admin: 200 },
    },
  ],
  'GET /api/fundraisers/:id/reach': [
    {
      case: 'published',
      prepare: published,
      expect: { guest: 401, unverified: 403, stranger: 403, owner: 200, buyer: 403, admin: 200 },
    },
    {
      case: 'draft',
      prepare: draft,
      expect: { guest: 401, unverified: 404, stranger: 404, owner: 200, buyer: 404, admin: 200 },
    },
  ],
  // Which fundraiser is the query's to say: a draft's address is a 404 like any unknown one (sharing.test.ts).
  'GET /api/oembed': [
    {
      case: 'published',
      prepare: ({ cast }) => ({
        query: new URLSearchParams({ url: `${cast.server.baseUrl}/projects/${cast.published.urlSlug}` }).toString(),
      }),
      expect: everyone(200),
    },
  ],
  ...sameForGetAndPost('/api/fundraisers/:id/formats/:format', [
    {
      case: 'published',
      prepare: ({ cast }) => ({ params: { id: cast.published.id, format: 'original' } }),
      expect: { guest: 401, unverified: 403, stranger: 403, owner: 200, buyer: 200, admin: 200 },
    },
    {
      case: 'granted',
      prepare: async ({ cast }) => ({
        params: { id: cast.published.id, format: 'original' },
        query: new URL(await successPageDownload(cast), cast.server.baseUrl).search.slice(1),
      }),
      expect: everyone(200),
    },
    {
      case: 'draft',
      prepare: ({ cast }) => ({ params: { id: cast.draft.id, format: 'original' } }),
      expect: { guest: 401, unverified: 404, stranger: 404, owner: 200, buyer: 404, admin: 200 },
    },
  ]),
  ...sameForGetAndPost('/api/purchases/:token/formats/:format', {
    prepare: ({ cast }) => ({ params: { token: cast.purchaseToken, format: 'original' } }),
    expect: everyone(200),
  }),
  'GET /api/tracks/:id/stream': [
    {
      case: 'published',
      prepare: ({ cast }) => ({ params: { id: cast.published.tracksList[0]!.id } }),
      expect: { guest: 401, unverified: 403, stranger: 403, owner: 200, buyer: 200, admin: 200 },
    },
    {
      case: 'draft',
      prepare: ({ cast }) => ({ params: { id: cast.draft.tracksList[0]!.id } }),
      expect: { guest: 404, unverified: 404, stranger: 404, owner: 200, buyer: 404, admin: 200 },
    },
    {
      // The receipt page's URL: its grant is the permission, whoever holds it.
      case: 'granted',
      prepare: async ({ cast }) => {
        const { tracks } = purchaseLinkSchema.parse(
          (await cast.server.client().get(`/api/purchases/${cast.purchaseToken}`)).json,
        );
        const src = new URL(tracks[0]!.src, cast.server.baseUrl);
        return { params: { id: cast.published.tracksList[0]!.id }, query: src.search.slice(1) };
      },
      expect: everyone(200),
    },
  ],

  // Your music (DESIGN.md: an album is 404 to callers with no access).
  'GET /api/music-library/user': { expect: signedIn(200) },
  'GET /api/music-library/purchases': { expect: signedIn(200) },
  'GET /api/music-library/album/slug/:slug': [
    {
      case: 'published',
      prepare: ({ cast }) => ({ params: { slug: cast.published.urlSlug! } }),
      expect: { guest: 401, unverified: 404, stranger: 404, owner: 200, buyer: 200, admin: 200 },
    },
    {
      case: 'draft',
      prepare: ({ cast }) => ({ params: { slug: cast.draft.urlSlug! } }),
      expect: { guest: 401, unverified: 404, stranger: 404, owner: 200, buyer: 404, admin: 200 },
    },
  ],
  'GET /api/music-library/album/:id': libraryAlbumCases(),

  // Donations (spec part 2 section 6: visitors donate; DESIGN.md: the receipt link is the permission).
  'GET /api/payments/config': { expect: everyone(200) },
  'POST /api/transactions/create-payment-intent': [
    {
      case: 'published',
      prepare: ({ cast }) => json(donationTo(cast)),
      expect: everyone(200),
    },
    {
      // Card testing (issue 22): past the caller's address's limit, a session lifts nothing.
      case: 'past the limit',
      prepare: async ({ cast, client }) => {
        for (let n = 0; n < 20; n++)
          await client.post('/api/transactions/create-payment-intent', json(donationTo(cast)).send);
        return json(donationTo(cast));
      },
      expect: everyone(429),
    },
    {
      // Only a published fundraiser takes donations, its owner's and admins' included.
      case: 'draft',
      bodyNamesTheTarget: true,
      prepare: ({ cast }) => json({ ...donationTo(cast), projectId: cast.draft.id }),
      expect: everyone(404),
    },
  ],
  'GET /api/transactions/query': [
    {
      prepare: ({ cast }) => ({ query: `paymentIntentId=${cast.bought.paymentIntentId}` }),
      expect: everyone(200),
    },
    {
      case: 'past the limit',
      prepare: async ({ cast, client }) => {
        for (let n = 0; n < 60; n++) await client.get(`/api/transactions/query?paymentIntentId=tpi_guess_${n}`);
        return { query: `paymentIntentId=${cast.bought.paymentIntentId}` };
      },
      expect: everyone(429),
    },
  ],
  'POST /api/test-payments/confirm': [
    {
      prepare: async ({ cast }) => {
        const intent = await startDonation(cast.server, { fundraiserId: cast.published.id, email: uniqueEmail('pay') });
        return json({ clientSecret: intent.clientSecret, ...testCard() });
      },
      expect: everyone(200),
    },
    {
      // Five declines for the intent's donor: the card that would pay is not tried.
      case: 'past the limit',
      prepare: async ({ cast, client }) => {
        const intent = await startDonation(cast.server, { fundraiserId: cast.published.id, email: uniqueEmail('pay') });
        for (let n = 0; n < 5; n++) {
          await client.post(
            '/api/test-payments/confirm',
            json({ clientSecret: intent.clientSecret, ...testCard('4000 0000 0000 0002') }).send,
          );
        }
        return json({ clientSecret: intent.clientSecret, ...testCard() });
      },
      expect: everyone(429),
    },
  ],
  'GET /api/test-payments/intent': {
    prepare: ({ cast }) => ({ query: `clientSecret=${cast.unpaid.clientSecret}` }),
    expect: everyone(200),
  },
  // Without Stripe's keys there is no webhook to call, whoever calls.
  'POST /api/stripe/webhook': {
    prepare: () => ({ send: { json: { id: 'evt_1' }, headers: { 'stripe-signature': 't=1,v1=00' } } }),
    expect: everyone(404),
  },
  'GET /api/purchases/:token': {
    prepare: ({ cast }) => ({ params: { token: cast.purchaseToken } }),
    expect: everyone(200),
  },
  'GET /api/purchases/:token/download': {
    prepare: ({ cast }) => ({ params: { token: cast.purchaseToken } }),
    expect: everyone(200),
  },

  // Giving history (issue 26): a verified email's own payments, like its purchases; the statement
  // email's signed link is the permission, whoever holds it.
  'GET /api/giving': { expect: { ...signedIn(200), unverified: 403 } },
  'POST /api/giving/receipts/:paymentIntentId': {
    prepare: ({ cast }) => ({ params: { paymentIntentId: cast.bought.paymentIntentId } }),
    // Only the donor's own payment; to anyone else it does not exist.
    expect: { guest: 401, unverified: 403, stranger: 404, owner: 404, buyer: 202, admin: 404 },
  },
  'GET /api/giving/statement/:file': [
    {
      prepare: () => ({ params: { file: '2025.pdf' } }),
      expect: { ...signedIn(200), unverified: 403 },
    },
    {
      case: 'signed link',
      prepare: ({ cast }) => {
        const token = statementToken(cast);
        return { params: { file: '2025.pdf' }, query: `token=${token}` };
      },
      expect: everyone(200),
    },
  ],

  // Admin money (spec part 2 section 6; DESIGN.md: 401 guests, 403 non-admins, checked first).
  'GET /api/admin/transactions': { expect: adminOnly(200) },
  'GET /api/admin/insight': { expect: adminOnly(200) },
  'GET /api/admin/transactions/download': { expect: adminOnly(200) },
  'POST /api/admin/transactions/fee-checks': { expect: adminOnly(200) },
  'GET /api/admin/reconciliation': {
    prepare: () => ({ query: 'from=2026-11-01&to=2026-11-30' }),
    expect: adminOnly(200),
  },
  'GET /api/admin/reconciliation.csv': {
    prepare: () => ({ query: 'from=2026-11-01&to=2026-11-30' }),
    expect: adminOnly(200),
  },
  'GET /api/ledger': { expect: everyone(200) },
  'GET /api/admin/disbursements': { expect: adminOnly(200) },
  'GET /api/admin/disbursements/:ein': {
    prepare: ({ cast }) => ({ params: { ein: cast.charityEin } }),
    expect: adminOnly(200),
  },
  'POST /api/admin/disbursements': {
    prepare: async ({ cast }) => {
      await cast.noPendingDisbursement();
      return json({
        ein: cast.charityEin,
        amountCents: 1,
        notes: '',
        charityName: 'American National Red Cross',
        finalizedAt: '2025-01-02',
        overrideOutstanding: true,
      });
    },
    expect: adminOnly(201),
  },
  'POST /api/admin/disbursement/initialize': {
    prepare: async ({ cast }) => {
      await cast.noPendingDisbursement();
      return json({ amountCents: 1, ein: cast.charityEin });
    },
    expect: adminOnly(200),
  },
  'PATCH /api/admin/disbursement/:id': {
    prepare: async ({ cast }) => ({
      params: { id: (await cast.pendingDisbursement()).id },
      send: { json: { status: 'CANCELED' } },
    }),
    expect: adminOnly(200),
  },
  'PATCH /api/admin/disbursement/:id/callback': {
    prepare: async ({ cast }) => {
      const pending = await cast.pendingDisbursement();
      return {
        params: { id: pending.id },
        send: { json: { action: 'markCanceled', callbackSecret: pending.callbackSecret } },
      };
    },
    expect: adminOnly(200),
  },

  // The charity directory (DESIGN.md section 4: public; the featured list is the admins').
  'GET /api/nonprofits/search/:query': { prepare: () => ({ params: { query: 'red cross' } }), expect: everyone(200) },
  'GET /api/nonprofits/featured': { expect: everyone(200) },
  'GET /api/nonprofits/:ein': { prepare: ({ cast }) => ({ params: { ein: cast.charityEin } }), expect: everyone(200) },
  'PUT /api/admin/featured-charities': {
    prepare: ({ cast }) => json({ eins: [cast.charityEin] }),
    expect: adminOnly(200),
  },

  // Uploads (DESIGN.md contract details: login required, a verified email is not).
  'POST /api/uploads/image': {
    prepare: async () => ({ send: { multipart: imageForm(await png(), 'cover.png', 'image/png') } }),
    expect: signedIn(201),
  },
  'POST /api/uploads/track': {
    prepare: () => ({ send: { multipart: fileForm(wav(), 'song.wav', 'audio/wav', 'trackFile') } }),
    expect: signedIn(201),
  },
};

/** Outside the API, served the same to everyone: the client's pages, the image renditions, metrics. */
const notInTheMatrix: Record<string, string> = {
  ...middlewareAndCatchAlls,
  'GET /metrics':
    'Prometheus figures: 404 for everyone unless METRICS_TOKEN is set, then only with that token, no session (tests/api/metrics.test.ts)',
  'GET /media/images/*': 'image renditions: public files, named by unguessable upload ids',
  'GET /media/*': 'anything else under /media: 404 for everyone',
  'GET /*': "the client's pages: the same HTML for everyone, whose data comes from the API above",
  'GET /embed/fundraisers/:slug':
    "the embedded player: the same HTML for everyone, a public fundraiser's or 404 (tests/api/sharing.test.ts)",
};

const REFUSALS = new Set([401, 403, 404]);

/** The cell's request, broken: a body that is not JSON and a page size that is not one. */
function garbled(send: SendOptions | undefined): SendOptions {
  const headers = {
    ...send?.headers,
    'content-type': send?.multipart ? 'multipart/form-data; boundary=x' : 'application/json',
  };
  return { headers, body: '{"' };
}

beforeAll(async () => {
  cast = await createCast(server);
}, 120_000);

describe('authorization matrix', () => {
  it('lists every route of the app, and only those', () => {
    expect(tableDrift(appRoutes(server.deps), Object.keys(matrix), notInTheMatrix)).toEqual([]);
  });

  it('answers each role as written down, and refuses before reading the request', async () => {
    const differences: string[] = [];
    let cells = 0;
    let garbledChecks = 0;
    for (const [route, entry] of Object.entries(matrix)) {
      const [method = '', template = ''] = route.split(' ');
      for (const cell of Array.isArray(entry) ? entry : [entry]) {
        for (const role of ROLES) {
          const account = cell.freshAccount
            ? await cast.fresh(role)
            : { client: cast.as(role), email: cast.emailOf(role) };
          const prepared = (await cell.prepare?.({ cast, role, ...account })) ?? {};
          const path = fillPath(template, prepared.params) + (prepared.query ? `?${prepared.query}` : '');
          const answer = await account.client.request(method, path, prepared.send);
          const expected = cell.expect[role];
          const where = `${route}${cell.case ? ` [${cell.case}]` : ''} as ${role}`;
          cells++;
          if (answer.status !== expected) {
            differences.push(`${where}: expected ${expected}, got ${answer.status} ${answer.text.slice(0, 160)}`);
            continue;
          }
          if (!REFUSALS.has(expected) || cell.bodyNamesTheTarget) continue;
          // The same caller, the same target, a broken request: refused the same way.
          const broken = await account.client.request(
            method,
            `${fillPath(template, prepared.params)}?page_size=x&pageSize=x`,
            method === 'GET' ? {} : garbled(prepared.send),
          );
          garbledChecks++;
          if (broken.status !== expected) {
            differences.push(
              `${where}, with a broken request: expected ${expected}, got ${broken.status} ${broken.text.slice(0, 160)}`,
            );
          }
        }
      }
    }
    console.log(
      `authorization matrix: ${cells} cells checked (${Object.keys(matrix).length} routes × ${ROLES.length} roles, ` +
        `with their cases), ${garbledChecks} refusals checked again with a broken request`,
    );
    expect(differences).toEqual([]);
  }, 240_000);
});
