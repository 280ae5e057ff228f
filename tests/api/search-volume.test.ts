import { beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_RESULT_CAP } from '../../shared/constants';
import { artistSearchResultSchema } from '../../shared/answers/artists';
import { fundraiserSearchResultSchema } from '../../shared/answers/fundraisers';
import { BUNDLED_CHARITIES } from '../../server/features/charities/bundled';
import { CANCER_SOCIETY_EIN, RED_CROSS_EIN } from '../fixtures/fundraisers';
import { useTestServer } from '../fixtures/use-test-server';

// Search past its cap (issue 13): more than SEARCH_RESULT_CAP artists and fundraisers match the
// broadest terms and the unfiltered lists. Their totals stop at the cap and say so; up to it,
// totals stay exact and the order stays FTS5's rank (or newest first without a term). Rows are written straight into SQLite (the API would take minutes for
// 13,000), so the search indexes are filled by the real triggers. What each search should find is
// worked out here from the rows themselves, word by word, not by asking FTS5.

const server = useTestServer();

const COUNT = 13_000;
const FIRST_WORDS = ['zephyr', 'zircon', 'ember', 'opal', 'lumen', 'nova', 'orbit'];
const SECOND_WORDS = ['tides', 'harbors', 'kites', 'mirrors', 'lanterns', 'valleys', 'yarns', 'waltzes', 'gardens'];
const charityName = (ein: string) => BUNDLED_CHARITIES.find((charity) => charity.ein === ein.replace('-', ''))!.name;

type Row = {
  id: number;
  public: boolean;
  /** Every word FTS5 indexes for the row, lower case. */
  words: string[];
  genre: string;
  genreSecondary: string | null;
  charityEin: string;
};
const artistRows: Row[] = [];
const fundraiserRows: Row[] = [];

beforeAll(() => {
  const { sqlite } = server;
  const userId = sqlite
    .prepare("INSERT INTO users (email, password_hash) VALUES ('volume@example.org', 'x')")
    .run().lastInsertRowid;
  const insertArtist = sqlite.prepare(
    `INSERT INTO artists (user_id, name, description, status, url_slug, published_at, deleted_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertFundraiser = sqlite.prepare(
    `INSERT INTO fundraisers (user_id, artist_id, name, description, charity_ein, charity_name, minimum_donation_cents,
       genre, genre_secondary, status, url_slug, published_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?, 500, ?, ?, ?, ?, ?, ?)`,
  );
  const start = Date.UTC(2025, 0, 1);
  sqlite.transaction(() => {
    for (let i = 0; i < COUNT; i++) {
      // One in twenty is a draft and one in fifty deleted: neither is ever found.
      const draft = i % 20 === 19;
      const deleted = i % 50 === 7;
      const status = draft ? 'DRAFT' : 'PUBLISHED';
      const publishedAt = draft ? null : start + i * 1000;
      const deletedAt = deleted ? start + COUNT * 1000 : null;
      const first = FIRST_WORDS[i % FIRST_WORDS.length]!;
      const second = SECOND_WORDS[i % SECOND_WORDS.length]!;

      const artistName = `Quasar ${first} Band`;
      const artistDescription = `Songs about ${second}.`;
      const artistId = Number(
        insertArtist.run(userId, artistName, artistDescription, status, `volume-artist-${i}`, publishedAt, deletedAt)
          .lastInsertRowid,
      );
      artistRows.push({
        id: artistId,
        public: !draft && !deleted,
        words: `${artistName} ${artistDescription}`.toLowerCase().match(/\w+/g)!,
        genre: '',
        genreSecondary: null,
        charityEin: '',
      });

      // Jazz first for one in eight, second for one in six (both at once for one in twenty-four).
      const genre = i % 8 === 0 ? 'Jazz' : 'Rock';
      const genreSecondary = i % 6 === 1 || i % 24 === 0 ? 'Jazz' : null;
      const ein = (i % 3 === 0 ? CANCER_SOCIETY_EIN : RED_CROSS_EIN).replace('-', '');
      const name = `${first} ${second}`;
      const description = `Recorded live, ${i % 2 ? 'mostly' : 'partly'} indoors.`;
      const id = Number(
        insertFundraiser.run(
          userId,
          artistId,
          name,
          description,
          ein,
          charityName(ein),
          genre,
          genreSecondary,
          status,
          `volume-fundraiser-${i}`,
          publishedAt,
          deletedAt,
        ).lastInsertRowid,
      );
      fundraiserRows.push({
        id,
        public: !draft && !deleted,
        words: `${name} ${description} ${artistName} ${charityName(ein)}`.toLowerCase().match(/\w+/g)!,
        genre,
        genreSecondary,
        charityEin: ein,
      });
    }
  })();
});

/** The public rows having, for every word of the term, a word that starts with it. */
function matching(rows: Row[], term: string, keep: (row: Row) => boolean = () => true) {
  const prefixes = term.toLowerCase().split(' ');
  return rows.filter(
    (row) => row.public && keep(row) && prefixes.every((prefix) => row.words.some((word) => word.startsWith(prefix))),
  );
}

const isJazz = (row: Row) => row.genre === 'Jazz' || row.genreSecondary === 'Jazz';

async function searchFundraisers(query: Record<string, string>) {
  const answer = await server.client().get(`/api/fundraisers/search?${new URLSearchParams(query)}`);
  expect(answer.status, answer.text).toBe(200);
  return fundraiserSearchResultSchema.parse(answer.json);
}

async function searchArtists(query: Record<string, string>) {
  const answer = await server.client().get(`/api/artists/search?${new URLSearchParams(query)}`);
  expect(answer.status, answer.text).toBe(200);
  return artistSearchResultSchema.parse(answer.json);
}

/** FTS5's own order over every match (rank, then newest), as the search ranked before the cap. */
function rankOrder(table: 'artists_fts' | 'fundraisers_fts', match: string): number[] {
  return server.sqlite
    .prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? ORDER BY rank, rowid DESC`)
    .pluck()
    .all(match) as number[];
}

describe('fundraiser search past the cap', () => {
  it('caps the total of a term matching more than the cap, and says so', async () => {
    const everyone = matching(fundraiserRows, 'quasar');
    expect(everyone.length).toBeGreaterThan(SEARCH_RESULT_CAP);
    for (const term of ['quasar', 'qu', 'q']) {
      const first = await searchFundraisers({ searchTerm: term });
      expect(first.totalCount).toBe(SEARCH_RESULT_CAP);
      expect(first.totalCountCapped).toBe(true);
      expect(first.results).toHaveLength(20);
    }
  });

  it('pages through the best of the newest matches, in rank order, and stops at the cap', async () => {
    const newest = matching(fundraiserRows, 'quasar')
      .map((row) => row.id)
      .sort((a, b) => b - a)
      .slice(0, SEARCH_RESULT_CAP);
    const window = new Set(newest);
    const expected = rankOrder('fundraisers_fts', '"quasar"*').filter((id) => window.has(id));

    const seen: number[] = [];
    for (let page = 0; page < SEARCH_RESULT_CAP / 100; page++) {
      const answer = await searchFundraisers({ searchTerm: 'quasar', pageSize: '100', page: String(page) });
      expect(answer.results).toHaveLength(100);
      seen.push(...answer.results.map((fundraiser) => fundraiser.id));
    }
    expect(seen).toEqual(expected);

    const past = await searchFundraisers({
      searchTerm: 'quasar',
      pageSize: '100',
      page: String(SEARCH_RESULT_CAP / 100),
    });
    expect(past).toEqual({ results: [], totalCount: SEARCH_RESULT_CAP, totalCountCapped: true });
    const farPast = await searchFundraisers({ searchTerm: 'quasar', page: '99999' });
    expect(farPast).toEqual({ results: [], totalCount: SEARCH_RESULT_CAP, totalCountCapped: true });
  });

  it('keeps exact totals and the rank order under the cap, single letters included', async () => {
    for (const term of ['zircon', 'z', 'o', 'y', 'w', 'zircon t', 'e m']) {
      const expected = matching(fundraiserRows, term);
      expect(expected.length, term).toBeLessThan(SEARCH_RESULT_CAP);
      const answer = await searchFundraisers({ searchTerm: term });
      expect(answer.totalCount, term).toBe(expected.length);
      expect(answer, term).not.toHaveProperty('totalCountCapped');
      const match = term
        .split(' ')
        .map((word) => `"${word}"*`)
        .join(' ');
      expect(
        answer.results.map((fundraiser) => fundraiser.id),
        term,
      ).toEqual(rankOrder('fundraisers_fts', match).slice(0, 20));
    }
    expect(await searchFundraisers({ searchTerm: 'x' })).toEqual({ results: [], totalCount: 0 });
  });

  it('filters by genre and charity, the EIN with or without its dash, capped only past the cap', async () => {
    const rock = await searchFundraisers({ searchTerm: 'quasar', genre: 'Rock' });
    expect(matching(fundraiserRows, 'quasar', (row) => row.genre === 'Rock').length).toBeGreaterThan(SEARCH_RESULT_CAP);
    expect(rock).toMatchObject({ totalCount: SEARCH_RESULT_CAP, totalCountCapped: true });
    expect(
      rock.results.every((fundraiser) => fundraiser.genre === 'Rock' || fundraiser.genreSecondary === 'Rock'),
    ).toBe(true);

    const jazz = await searchFundraisers({ searchTerm: 'quasar', genre: 'Jazz' });
    expect(jazz.totalCount).toBe(matching(fundraiserRows, 'quasar', isJazz).length);
    expect(jazz).not.toHaveProperty('totalCountCapped');
    expect(
      jazz.results.every((fundraiser) => fundraiser.genre === 'Jazz' || fundraiser.genreSecondary === 'Jazz'),
    ).toBe(true);

    const cancer = (row: Row) => row.charityEin === CANCER_SOCIETY_EIN.replace('-', '');
    const withDash = await searchFundraisers({ searchTerm: 'q', charityEin: CANCER_SOCIETY_EIN });
    const withoutDash = await searchFundraisers({ searchTerm: 'q', charityEin: CANCER_SOCIETY_EIN.replace('-', '') });
    expect(withDash.totalCount).toBe(matching(fundraiserRows, 'q', cancer).length);
    expect(withoutDash).toEqual(withDash);
    expect(withDash.results.every((fundraiser) => fundraiser.charityEin === CANCER_SOCIETY_EIN)).toBe(true);

    const both = await searchFundraisers({ searchTerm: 'ember', genre: 'Jazz', charityEin: CANCER_SOCIETY_EIN });
    const expected = matching(fundraiserRows, 'ember', (row) => isJazz(row) && cancer(row));
    const kept = new Set(expected.map((row) => row.id));
    expect(expected.length).toBeGreaterThan(20);
    expect(both.totalCount).toBe(expected.length);
    expect(both.results.map((fundraiser) => fundraiser.id)).toEqual(
      rankOrder('fundraisers_fts', '"ember"*')
        .filter((id) => kept.has(id))
        .slice(0, 20),
    );
  });

  it('lists recent fundraisers newest first, capping the total but serving pages past it', async () => {
    const everyone = fundraiserRows.filter((row) => row.public);
    expect(everyone.length).toBeGreaterThan(SEARCH_RESULT_CAP);
    const recent = await searchFundraisers({ page: '600' });
    expect(recent).toMatchObject({ totalCount: SEARCH_RESULT_CAP, totalCountCapped: true });
    expect(recent.results.map((fundraiser) => fundraiser.id)).toEqual(
      everyone
        .map((row) => row.id)
        .sort((a, b) => b - a)
        .slice(600 * 20, 601 * 20),
    );

    // A fundraiser that is Jazz twice over is listed once.
    const jazz = everyone.filter(isJazz);
    const jazzAnswer = await searchFundraisers({ genre: 'Jazz', pageSize: '100', page: '2' });
    expect(jazzAnswer.totalCount).toBe(jazz.length);
    expect(jazzAnswer).not.toHaveProperty('totalCountCapped');
    expect(jazzAnswer.results.map((fundraiser) => fundraiser.id)).toEqual(
      jazz
        .map((row) => row.id)
        .sort((a, b) => b - a)
        .slice(200, 300),
    );

    const jazzForCancer = jazz.filter((row) => row.charityEin === '131788491');
    const both = await searchFundraisers({ genre: 'Jazz', charityEin: CANCER_SOCIETY_EIN });
    expect(both.totalCount).toBe(jazzForCancer.length);
    expect(both.results.map((fundraiser) => fundraiser.id)).toEqual(
      jazzForCancer
        .map((row) => row.id)
        .sort((a, b) => b - a)
        .slice(0, 20),
    );
  });
});

describe('artist search past the cap', () => {
  it('caps the total of the broadest terms, keeps exact totals and rank order under the cap', async () => {
    expect(matching(artistRows, 'quasar').length).toBeGreaterThan(SEARCH_RESULT_CAP);
    for (const term of ['quasar', 'q', 'band']) {
      const answer = await searchArtists({ searchTerm: term });
      expect(answer, term).toMatchObject({ totalCount: SEARCH_RESULT_CAP, totalCountCapped: true });
      expect(answer.results).toHaveLength(20);
    }
    const past = await searchArtists({ searchTerm: 'quasar', page: String(SEARCH_RESULT_CAP / 20) });
    expect(past).toEqual({ results: [], totalCount: SEARCH_RESULT_CAP, totalCountCapped: true });

    for (const term of ['zephyr', 'w', 'o']) {
      const answer = await searchArtists({ searchTerm: term });
      expect(answer.totalCount, term).toBe(matching(artistRows, term).length);
      expect(answer).not.toHaveProperty('totalCountCapped');
      expect(answer.results.map((artist) => artist.id)).toEqual(rankOrder('artists_fts', `"${term}"*`).slice(0, 20));
    }

    const everyone = artistRows.filter((row) => row.public);
    const recent = await searchArtists({ page: '550' });
    expect(recent).toMatchObject({ totalCount: SEARCH_RESULT_CAP, totalCountCapped: true });
    expect(recent.results.map((artist) => artist.id)).toEqual(
      everyone
        .map((row) => row.id)
        .sort((a, b) => b - a)
        .slice(550 * 20, 551 * 20),
    );
  });
});
