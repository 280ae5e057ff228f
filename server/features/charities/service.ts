import { z } from 'zod';
import { type updateFeaturedCharitiesSchema } from '../../../shared/schemas/charities';
import { CHARITY_LOGO_SOURCE } from '../../../shared/constants';
import { formatEin, normaliseEin } from '../../../shared/ein';
import { type FeaturedCharities, type Nonprofit } from '../../../shared/answers/charities';
import { publicCache } from '../../db/cache';
import { SerializedJson } from '../../infra/serialized-json';
import { FormError, notFound } from '../../errors';
import { toMatchQuery } from '../../infra/full-text';
import { takeAttempt, type ThrottleRule } from '../../infra/security/throttle';
import type { DirectoryCharity } from '../../infra/charity-directory/every-org';
import type { Db } from '../../db/client';
import type { Deps } from '../../deps';
import { BUNDLED_CHARITIES, DEFAULT_FEATURED_EINS } from './bundled';
import * as queries from './queries';
import type { CharityRow } from './queries';

const tagsSchema = z.array(z.string()).catch([]);

export function toNonprofit(row: CharityRow): Nonprofit {
  const location = [row.city, row.state].filter(Boolean).join(', ');
  const tags = tagsSchema.parse(JSON.parse(row.tags));
  return {
    ein: formatEin(row.ein),
    name: row.name,
    locationAddress: location || undefined,
    tags: tags.length ? tags : undefined,
    // Pages may load images from Every.org's image host only (the Content-Security-Policy): a
    // logo anywhere else would be refused by the browser, so it is not handed out.
    logoUrl: row.logoUrl?.startsWith(CHARITY_LOGO_SOURCE) ? row.logoUrl : undefined,
    websiteUrl: row.websiteUrl ?? undefined,
  };
}

/** Puts the bundled charities in the directory; run at every start, it refreshes them. */
export function seedBundledCharities(deps: Pick<Deps, 'db'>) {
  queries.upsertCharities(
    deps.db,
    BUNDLED_CHARITIES.map((charity) => ({ ...charity, tags: JSON.stringify(charity.tags), source: 'bundled' })),
  );
}

const PAGE = 20;

/**
 * Keeps what Every.org answered with in the directory, so later lookups, the fundraisers (which
 * read the local directory only) and the next search find it without the network. Answers with
 * the stored rows, in the order given: a bundled entry keeps its curated fields.
 */
function cacheRemote(deps: Deps, found: DirectoryCharity[]): CharityRow[] {
  if (found.length === 0) return [];
  queries.upsertCharities(
    deps.db,
    found.map((charity) => ({ ...charity, tags: JSON.stringify(charity.tags), source: 'every.org' })),
  );
  return queries.findCharities(
    deps.db,
    found.map((charity) => charity.ein),
  );
}

/** Each caller's share of our Every.org key: plenty for typing a charity's name, not for crawling. */
const everyOrgAsksByCaller: ThrottleRule = { bucket: 'every-org-caller', limit: 60, windowMs: 10 * 60 * 1000 };

/** Answers (misses included) are reused for a while: the same search typed twice asks once. */
const ANSWER_TTL_MS = 10 * 60 * 1000;
const MAX_REMEMBERED = 500;
const remembered = new WeakMap<object, Map<string, { at: number; answer: unknown }>>();

/**
 * Asks Every.org, when configured. Any failure (timeout, error status, odd answer) is logged and
 * answered as "nothing found": the local directory still answers, never a 500. A caller over its
 * share gets the local answer only.
 */
async function askEveryOrg<T>(
  deps: Deps,
  caller: string,
  what: string,
  ask: (client: NonNullable<Deps['everyOrg']>) => Promise<T>,
): Promise<T | null> {
  const client = deps.everyOrg;
  if (!client) return null;
  let answers = remembered.get(client);
  if (!answers) remembered.set(client, (answers = new Map()));
  const hit = answers.get(what);
  if (hit && Date.now() - hit.at < ANSWER_TTL_MS) return hit.answer as T;
  if (takeAttempt(deps.db, everyOrgAsksByCaller, caller) === null) return null;
  try {
    const answer = await ask(client);
    if (answers.size >= MAX_REMEMBERED) answers.delete(answers.keys().next().value!);
    answers.set(what, { at: Date.now(), answer });
    return answer;
  } catch (error) {
    // An expected kind of failure: the reason is enough, a stack trace would only be noise.
    const reason = error instanceof Error ? error.message : String(error);
    deps.logger.warn({ what, reason }, 'Every.org failed; answering from the local charity directory');
    return null;
  }
}

/** The directory's row for a 9-digit EIN: local first, else Every.org's answer, cached. */
async function findOrFetch(deps: Deps, caller: string, ein: string): Promise<CharityRow | undefined> {
  const local = queries.findCharity(deps.db, ein);
  if (local) return local;
  const remote = await askEveryOrg(deps, caller, `lookup ${ein}`, (client) => client.lookup(ein));
  return remote ? cacheRemote(deps, [remote])[0] : undefined;
}

/**
 * By EIN (exact, dash optional) or by words of the name or city (prefix match), at most 20. With
 * Every.org configured its matches are merged in: up to 10 local ones first (the curated and
 * already cached entries), then Every.org's, then the other local ones, each EIN once. Capping
 * the local share keeps Every.org's results visible when a full IRS import matches everything.
 */
export async function searchNonprofits(deps: Deps, caller: string, query: string): Promise<Nonprofit[]> {
  const ein = normaliseEin(query);
  if (ein) {
    const row = await findOrFetch(deps, caller, ein);
    return row ? [toNonprofit(row)] : [];
  }
  const match = toMatchQuery(query, 12);
  if (match === null) return [];
  const local = queries.searchCharities(deps.db, match, PAGE);
  const term = query.trim().toLowerCase();
  const remote = await askEveryOrg(deps, caller, `search ${term}`, (client) => client.search(term));
  if (!remote?.length) return local.map(toNonprofit);
  const merged = new Map<string, CharityRow>();
  for (const row of [...local.slice(0, PAGE / 2), ...cacheRemote(deps, remote), ...local.slice(PAGE / 2)]) {
    if (!merged.has(row.ein)) merged.set(row.ein, row);
  }
  return [...merged.values()].slice(0, PAGE).map(toNonprofit);
}

export async function getNonprofit(deps: Deps, caller: string, einInput: string) {
  const ein = normaliseEin(einInput);
  const row = ein ? await findOrFetch(deps, caller, ein) : undefined;
  if (!row) throw notFound(`No charity found with EIN ${einInput}`);
  const nonprofit = toNonprofit(row);
  return {
    nonprofit,
    nonprofitTags: (nonprofit.tags ?? []).map((tag) => ({ tagName: tag.replace(/\s+/g, '-'), title: tag })),
  };
}

/** The home page's featured charities, in order: the admins' choice, else the default list. */
export function featuredCharities(deps: Pick<Deps, 'db'>): Nonprofit[] {
  const eins = queries.readFeaturedEins(deps.db) ?? DEFAULT_FEATURED_EINS;
  return queries.findCharities(deps.db, eins).map(toNonprofit);
}

/** The home page asks for it on every visit (issue 24): kept, serialized, until a write changes it. */
const featuredAnswer = publicCache<SerializedJson>(1);

/** GET /api/nonprofits/featured: `{ nonprofits }`, the same for everyone. */
export function featuredCharitiesAnswer(deps: Pick<Deps, 'db'>): SerializedJson {
  return featuredAnswer.get(deps.db, 'featured', () => {
    const answer: FeaturedCharities = { nonprofits: featuredCharities(deps) };
    return new SerializedJson(answer);
  })!;
}

/**
 * Replaces the featured charities (admins only; the route checks). Each EIN must be in the
 * directory (Every.org included, when configured), else that entry is 'Nonprofit is not valid'.
 */
export async function updateFeaturedCharities(
  deps: Deps,
  caller: string,
  input: z.infer<typeof updateFeaturedCharitiesSchema>,
): Promise<Nonprofit[]> {
  const eins = input.eins.map((value) => normaliseEin(value) ?? '');
  const rows = await Promise.all(eins.map((ein) => findOrFetch(deps, caller, ein)));
  const missing = rows.flatMap((row, index) =>
    row ? [] : [{ field: `eins.${index}`, message: 'Nonprofit is not valid' }],
  );
  if (missing.length) throw new FormError(missing);
  queries.writeFeaturedEins(deps.db, eins);
  return featuredCharities(deps);
}

// ---------------------------------------------------------------------------------------------
// For other features (a fundraiser's charity). The directory is this feature's table.

/** The charity a fundraiser may support, by its 9-digit EIN, from the local directory. */
export function findDirectoryCharity(db: Db, ein: string) {
  return queries.findCharity(db, ein);
}
