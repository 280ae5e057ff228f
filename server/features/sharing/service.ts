import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { imageUrl } from '../../../shared/constants';
import { EMBED_FRAME, type EmbedOptions, embedCode, embedTitle } from '../../../shared/embed';
import { fundraiserMessages } from '../../../shared/fundraiser-messages';
import type { Fundraiser, FundraiserReach } from '../../../shared/answers/fundraisers';
import type { Artist } from '../../../shared/answers/artists';
import type { OEmbedQuery } from '../../../shared/schemas/sharing';
import { findPage } from '../../../shared/routes';
import { publicCache } from '../../db/cache';
import type { Db } from '../../db/client';
import { settings } from '../../db/schema';
import type { Deps, Session } from '../../deps';
import { AppError, notFound } from '../../errors';
import { SerializedJson } from '../../infra/serialized-json';
import { takeAttempts, type ThrottleRule } from '../../infra/security/throttle';
import { getArtist, getArtistBySlug } from '../artists/service';
import {
  embedDonations,
  getFundraiser,
  getFundraiserBySlug,
  listArtistFundraisers,
  publicShareCount,
  shareCountOf,
} from '../fundraisers/service';
import { type EmbedPageInput, embedPageHtml } from './embed-page';
import { countForFundraiser, countForFundraiserIn, type DailyCountKind, totalCounts } from '../insight/service';

// Taking a fundraiser where the fans are (issue 28; DESIGN.md wave 3, "embeds" and "shares"): the
// embedded player's data, oEmbed, the share counter and what the owner sees of it all. Nothing
// here keeps a cookie or who a visitor was: a share is told apart from a repeat by a keyed hash
// kept in the throttle table (pruned within a day), embed views and plays are counts per day.
// None of these counts is in a table a public page is made from: a share or a view in an embed
// on someone's blog never empties the cached landing pages (server/db/changes.ts).

const valueOf = <T>(answer: T | SerializedJson): T => (answer instanceof SerializedJson ? (answer.value as T) : answer);

const isPublic = (fundraiser: Fundraiser) => fundraiser.status === 'PUBLISHED' && !fundraiser.deletedAt;

/**
 * A published fundraiser as anyone sees it, by its slug (or a former one) or its id, as its page's
 * address may be; 404 for anything else.
 */
export function publicFundraiser(deps: Deps, slugOrId: string): Fundraiser {
  const answer = /^\d+$/.test(slugOrId)
    ? getFundraiser(deps, null, Number(slugOrId))
    : getFundraiserBySlug(deps, null, slugOrId);
  const fundraiser = valueOf(answer);
  if (!isPublic(fundraiser)) throw notFound(fundraiserMessages.notFound);
  return fundraiser;
}

/** Only a published fundraiser is shared or embedded: anything else is 404, for everyone. */
export function checkPublic(deps: Deps, id: number): void {
  publicFundraiser(deps, String(id));
}

// ---------------------------------------------------------------------------------------------
// Shares

const HOUR_MS = 60 * 60 * 1000;

/** One count per visitor and fundraiser per hour (DESIGN.md wave 3, "shares"). */
const SHARE_RULE: ThrottleRule = { bucket: 'share', limit: 1, windowMs: HOUR_MS };

/**
 * And a few per network and fundraiser: a visitor is an address and a browser, and a script that
 * changes its browser's name at every request is not that many visitors. An office or a
 * household sharing one address is still counted many times over.
 */
const SHARE_NETWORK_RULE: ThrottleRule = { bucket: 'share-network', limit: 20, windowMs: HOUR_MS };

const VISITOR_KEY_SETTING = 'visitor-key';
const visitorKeys = new WeakMap<Db, string>();

/**
 * The secret the visitor hashes are keyed with: made once per installation and kept in the
 * database, so every server process tells the same visitor apart the same way, and no one who
 * reads the throttle table can try addresses against its hashes. Read once per process: an
 * insert on every share would count as a write to the settings (server/db/changes.ts).
 */
function visitorKey(db: Db): string {
  let key = visitorKeys.get(db);
  if (key !== undefined) return key;
  const read = () => db.select().from(settings).where(eq(settings.key, VISITOR_KEY_SETTING)).get()?.value;
  key = read();
  if (key === undefined) {
    // Two processes making it at once: the first insert wins, and both read it back.
    db.insert(settings)
      .values({ key: VISITOR_KEY_SETTING, value: randomBytes(32).toString('base64') })
      .onConflictDoNothing()
      .run();
    key = read()!;
  }
  visitorKeys.set(db, key);
  return key;
}

/**
 * Who shares, as far as counting needs: a signed-in user by id, anyone else by a keyed hash of
 * their address and browser. Neither leaves this function in a form that names them.
 */
function visitorOf(db: Db, session: Session | null, clientIp: string, userAgent: string): string {
  const who = session ? `user:${session.user.id}` : `visitor:${clientIp}\n${userAgent}`;
  return createHash('sha256').update(visitorKey(db)).update('\n').update(who).digest('base64url').slice(0, 22);
}

/** The network a share came from, hashed like a visitor. */
function networkOf(db: Db, clientIp: string): string {
  return createHash('sha256')
    .update(visitorKey(db))
    .update('\nnetwork:')
    .update(clientIp)
    .digest('base64url')
    .slice(0, 22);
}

/**
 * POST /api/fundraisers/{id}/shares: a completed share (a copied link or embed code, the phone's
 * share sheet) counts once per visitor and fundraiser per hour; the count either way.
 */
export function recordShare(
  deps: Deps,
  session: Session | null,
  id: number,
  visit: { clientIp: string; userAgent: string },
): { shareCount: number } {
  checkPublic(deps, id);
  const visitor = `${id}:${visitorOf(deps.db, session, visit.clientIp, visit.userAgent)}`;
  const network = `${id}:${networkOf(deps.db, visit.clientIp)}`;
  return deps.db.transaction((tx) => {
    const taken = takeAttempts(tx, [
      [SHARE_RULE, visitor],
      [SHARE_NETWORK_RULE, network],
    ]);
    if ('ids' in taken) countForFundraiserIn(tx, deps, id, 'share');
    return { shareCount: publicShareCount(tx, id) };
  });
}

// ---------------------------------------------------------------------------------------------
// What the embedded player reports

export type EmbedEventKind = 'view' | 'play';
const EMBED_EVENT_KINDS = { view: 'embed_view', play: 'embed_play' } as const satisfies Record<
  EmbedEventKind,
  DailyCountKind
>;

/**
 * A view of a published fundraiser's embedded player, or a preview played in it (its route has
 * checked the fundraiser): counted for today. Over the limit, quietly not counted: the player
 * never reads the answer.
 */
export function countEmbedEvent(deps: Deps, id: number, kind: EmbedEventKind, clientIp: string): void {
  countForFundraiser(deps, id, EMBED_EVENT_KINDS[kind], { clientIp });
}

/** GET /api/fundraisers/{id}/reach: owner and admins. */
export function reachOf(deps: Deps, session: Session, id: number): FundraiserReach {
  const shareCount = shareCountOf(deps, session, id);
  const counts = totalCounts(deps.db, id);
  const donations = embedDonations(deps, id);
  return {
    shareCount,
    embedViews: counts.get('embed_view') ?? 0,
    embedPlays: counts.get('embed_play') ?? 0,
    embedDonations: donations.count,
    embedRaisedCents: donations.raisedCents,
  };
}

// ---------------------------------------------------------------------------------------------
// oEmbed (oembed.com, section 2.3)

export type OEmbed = {
  version: '1.0';
  type: 'rich';
  provider_name: string;
  provider_url: string;
  title: string;
  author_name: string;
  author_url: string;
  html: string;
  width: number;
  height: number;
  thumbnail_url?: string;
  thumbnail_width?: number;
  thumbnail_height?: number;
  cache_age: number;
};

/** The oEmbed answer is a copy of what the page shows; consumers may keep it this long (seconds). */
const OEMBED_CACHE_AGE = 3600;

/**
 * The fundraiser a pasted address stands for: a fundraiser's page (or its donate page), its
 * embedded player, or an artist's page (their newest published fundraiser). Only addresses of
 * this site; anything else is 404, as oEmbed asks.
 */
function fundraiserOfUrl(deps: Deps, origin: string, raw: string): Fundraiser {
  const unknown = () => notFound(fundraiserMessages.notFound);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw unknown();
  }
  if (url.origin !== origin) throw unknown();
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    throw unknown();
  }
  const embedded = /^\/embed\/fundraisers\/([^/]+)\/?$/.exec(path);
  if (embedded) return publicFundraiser(deps, embedded[1]!);
  const page = findPage(url.pathname);
  const slugOrId = page?.params.projectSlugOrId;
  if (page && slugOrId && (page.name === 'fundraiser' || page.name === 'donate')) {
    return publicFundraiser(deps, decodeURIComponent(slugOrId));
  }
  if (page?.name === 'artist' && page.params.artistSlugOrId) {
    return newestOfArtist(deps, decodeURIComponent(page.params.artistSlugOrId));
  }
  throw unknown();
}

function newestOfArtist(deps: Deps, slugOrId: string): Fundraiser {
  const answer = /^\d+$/.test(slugOrId)
    ? getArtist(deps, null, Number(slugOrId))
    : getArtistBySlug(deps, null, slugOrId);
  const artist = valueOf<Artist>(answer);
  const published = listArtistFundraisers(deps, null, artist.id).filter(
    (fundraiser) => isPublic(fundraiser) && fundraiser.publishedAt,
  );
  const newest = published.sort((a, b) => b.publishedAt!.localeCompare(a.publishedAt!))[0];
  if (!newest) throw notFound(fundraiserMessages.notFound);
  return newest;
}

/**
 * The frame for the space the consumer has: the default width, narrower when maxwidth asks; the
 * full player where it fits in maxheight, else the compact one, cut to maxheight if even that is
 * too tall. Never larger than asked (oEmbed: "must not exceed").
 */
function frameFor(maxwidth?: number, maxheight?: number): { options: EmbedOptions; width: number; height: number } {
  const width = Math.min(EMBED_FRAME.width, maxwidth ?? Infinity);
  const size = maxheight === undefined || maxheight >= EMBED_FRAME.height.full ? 'full' : 'compact';
  const height = Math.min(EMBED_FRAME.height[size], maxheight ?? Infinity);
  return { options: { size, theme: 'light' }, width, height };
}

export function oEmbedOf(deps: Deps, origin: string, request: OEmbedQuery): OEmbed {
  const fundraiser = fundraiserOfUrl(deps, origin, request.url);
  const slug = fundraiser.urlSlug ?? String(fundraiser.id);
  const title = `${fundraiser.name} by ${fundraiser.artist.name}`;
  const { options, width, height } = frameFor(request.maxwidth, request.maxheight);
  const siteName = deps.config.siteName;
  return {
    version: '1.0',
    type: 'rich',
    provider_name: siteName,
    provider_url: `${origin}/`,
    title,
    author_name: fundraiser.artist.name,
    author_url: `${origin}/artists/${encodeURIComponent(fundraiser.artist.urlSlug ?? String(fundraiser.artist.id))}`,
    html: embedCode(origin, slug, embedTitle(fundraiser, siteName), options, width, height),
    width,
    height,
    // Covers are drawn square everywhere on the site; the 400 px rendition is the embed's own.
    ...(fundraiser.albumCover && {
      thumbnail_url: `${origin}${imageUrl(fundraiser.albumCover, 400, 'jpg')}`,
      thumbnail_width: 400,
      thumbnail_height: 400,
    }),
    cache_age: OEMBED_CACHE_AGE,
  };
}

/** oEmbed's answer for a format it does not speak: 501 (section 2.3.5). */
export function unsupportedFormat(format: string): AppError {
  return new AppError('not-implemented', 'OTHER', `Only format=json is offered, not ${format.slice(0, 20)}.`);
}

// ---------------------------------------------------------------------------------------------
// The embedded player's page

/**
 * Embed pages as every visitor sees them, by site address, fundraiser and size: made once and
 * sent until a write changes what a public page shows (db/cache.ts), as the landing pages are.
 */
const embedPages = publicCache<string>({
  maxEntries: 300,
  maxBytes: 8 * 1024 * 1024,
  sizeOf: (html) => html.length * 2,
});

/** GET /embed/fundraisers/{slug}: the player's HTML; 404 for a draft or an unknown slug. */
export function embedPage(
  deps: Deps,
  slug: string,
  options: EmbedOptions,
  page: Omit<EmbedPageInput, 'fundraiser' | 'options' | 'siteName'>,
): string {
  const key = `${page.origin} ${slug} ${options.size} ${options.theme} ${page.assets.js}`;
  const html = embedPages.get(deps.db, key, () =>
    embedPageHtml({ ...page, fundraiser: publicFundraiser(deps, slug), options, siteName: deps.config.siteName }),
  );
  return html!;
}
