import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { imageUrl } from '../../../shared/constants';
import { EMBED_FRAME, type EmbedOptions, embedCode, embedUrl } from '../../../shared/embed';
import { fundraiserMessages } from '../../../shared/fundraiser-messages';
import type { Fundraiser, FundraiserReach } from '../../../shared/answers/fundraisers';
import type { Artist } from '../../../shared/answers/artists';
import { findPage } from '../../../shared/routes';
import { siteCalendarDate } from '../../../shared/site-dates';
import { publicCache } from '../../db/cache';
import type { Db } from '../../db/client';
import { settings } from '../../db/schema';
import type { Deps, Session } from '../../deps';
import { AppError, invalid, notFound } from '../../errors';
import { SerializedJson } from '../../infra/serialized-json';
import { takeAttempt, type ThrottleRule } from '../../infra/security/throttle';
import { getArtistBySlug } from '../artists/service';
import {
  countShare,
  embedDonations,
  getFundraiser,
  getFundraiserBySlug,
  listArtistFundraisers,
  shareCountOf,
} from '../fundraisers/service';
import { type EmbedPageInput, embedPageHtml } from './embed-page';
import * as queries from './queries';

// Taking a fundraiser where the fans are (issue 28; DESIGN.md wave 3, "embeds" and "shares"): the
// embedded player's data, oEmbed, the share counter and what the owner sees of it all. Nothing
// here keeps a cookie or who a visitor was: a share is told apart from a repeat by a keyed hash
// that lives an hour in the throttle table, embed views and plays are counts per day.

const valueOf = <T>(answer: T | SerializedJson): T => (answer instanceof SerializedJson ? (answer.value as T) : answer);

/** A published fundraiser as anyone sees it, by its slug (or a former one); 404 for anything else. */
export function publicFundraiser(deps: Deps, slug: string): Fundraiser {
  const fundraiser = valueOf(getFundraiserBySlug(deps, null, slug));
  if (fundraiser.status !== 'PUBLISHED' || fundraiser.deletedAt) throw notFound(fundraiserMessages.notFound);
  return fundraiser;
}

// ---------------------------------------------------------------------------------------------
// Shares

/** One count per visitor and fundraiser per hour (DESIGN.md wave 3, "shares"). */
const SHARE_RULE: ThrottleRule = { bucket: 'share', limit: 1, windowMs: 60 * 60 * 1000 };

const VISITOR_KEY_SETTING = 'visitor-key';

/**
 * The secret the visitor hashes are keyed with: made once per installation and kept in the
 * database, so every server process tells the same visitor apart the same way, and no one who
 * reads the throttle table can try addresses against its hashes.
 */
function visitorKey(db: Db): string {
  db.insert(settings)
    .values({ key: VISITOR_KEY_SETTING, value: randomBytes(32).toString('base64') })
    .onConflictDoNothing()
    .run();
  return db.select().from(settings).where(eq(settings.key, VISITOR_KEY_SETTING)).get()!.value;
}

/**
 * Who shares, as far as counting needs: a signed-in user by id, anyone else by a keyed hash of
 * their address and browser. Neither leaves this function in a form that names them.
 */
function visitorOf(db: Db, session: Session | null, clientIp: string, userAgent: string): string {
  const who = session ? `user:${session.user.id}` : `visitor:${clientIp}\n${userAgent}`;
  return createHash('sha256').update(visitorKey(db)).update('\n').update(who).digest('base64url').slice(0, 22);
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
  const key = `${id}:${visitorOf(deps.db, session, visit.clientIp, visit.userAgent)}`;
  return deps.db.transaction((tx) => {
    if (takeAttempt(tx, SHARE_RULE, key) === null) return { shareCount: countOf(deps, id) };
    queries.addToDailyCount(tx, id, siteCalendarDate(Date.now(), deps.config.timeZone), 'share');
    return { shareCount: countShare({ ...deps, db: tx }, id) };
  });
}

/** The count as it stands, without counting (a repeat within the hour). */
function countOf(deps: Deps, id: number): number {
  return valueOf(getFundraiser(deps, null, id)).shareCount;
}

// ---------------------------------------------------------------------------------------------
// What the embedded player reports

/** A page of the player may report this often per address: a busy office shares one. */
const EMBED_EVENTS_RULE: ThrottleRule = { bucket: 'embed-events', limit: 600, windowMs: 60 * 60 * 1000 };

export const EMBED_EVENT_KINDS = { view: 'embed_view', play: 'embed_play' } as const;
export type EmbedEventKind = keyof typeof EMBED_EVENT_KINDS;

/** A view of a fundraiser's embedded player, or a preview played in it: counted for today. */
export function countEmbedEvent(deps: Deps, id: number, kind: EmbedEventKind, clientIp: string): void {
  checkPublic(deps, id);
  // Over the limit, the count is quietly not kept: the player never shows the answer anyway.
  if (takeAttempt(deps.db, EMBED_EVENTS_RULE, clientIp) === null) return;
  queries.addToDailyCount(deps.db, id, siteCalendarDate(Date.now(), deps.config.timeZone), EMBED_EVENT_KINDS[kind]);
}

/** GET /api/fundraisers/{id}/reach: owner and admins. */
export function reachOf(deps: Deps, session: Session, id: number): FundraiserReach {
  const shareCount = shareCountOf(deps, session, id);
  const counts = queries.totalCounts(deps.db, id);
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

export type OEmbedRequest = { url: string; maxwidth?: number; maxheight?: number };

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
    const decoded = decodeURIComponent(slugOrId);
    return /^\d+$/.test(decoded) ? publishedById(deps, Number(decoded)) : publicFundraiser(deps, decoded);
  }
  if (page?.name === 'artist' && page.params.artistSlugOrId) {
    return newestOfArtist(deps, decodeURIComponent(page.params.artistSlugOrId));
  }
  throw unknown();
}

function publishedById(deps: Deps, id: number): Fundraiser {
  const fundraiser = valueOf(getFundraiser(deps, null, id));
  if (fundraiser.status !== 'PUBLISHED' || fundraiser.deletedAt) throw notFound(fundraiserMessages.notFound);
  return fundraiser;
}

/** Only a published fundraiser is shared or embedded: anything else is 404, for everyone. */
export function checkPublic(deps: Deps, id: number): void {
  publishedById(deps, id);
}

function newestOfArtist(deps: Deps, slugOrId: string): Fundraiser {
  const artist = valueOf<Artist>(getArtistBySlug(deps, null, slugOrId));
  const published = listArtistFundraisers(deps, null, artist.id).filter(
    (fundraiser) => fundraiser.status === 'PUBLISHED' && fundraiser.publishedAt && !fundraiser.deletedAt,
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
export function frameFor(
  maxwidth?: number,
  maxheight?: number,
): { options: EmbedOptions; width: number; height: number } {
  const width = Math.min(EMBED_FRAME.width, maxwidth ?? Infinity);
  const size = maxheight === undefined || maxheight >= EMBED_FRAME.height.full ? 'full' : 'compact';
  const height = Math.min(EMBED_FRAME.height[size], maxheight ?? Infinity);
  return { options: { size, theme: 'light' }, width, height };
}

export function oEmbedOf(deps: Deps, origin: string, request: OEmbedRequest): OEmbed {
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
    html: embedCode(origin, slug, `${title} on ${siteName}`, options, width, height),
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

/** `maxwidth`/`maxheight` as oEmbed sends them: a positive whole number of pixels, or absent. */
export function readPixels(name: 'maxwidth' | 'maxheight', raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) === 0) throw invalid(`${name} must be a whole number of pixels.`);
  return Number(raw);
}

/** oEmbed's answer for a format it does not speak: 501 (section 2.3.5). */
export function unsupportedFormat(format: string): AppError {
  return new AppError('not-implemented', 'OTHER', `Only format=json is offered, not ${format.slice(0, 20)}.`);
}

/** The embed page's address of a fundraiser, for share cards (twitter:player) and the oEmbed link. */
export function playerUrl(origin: string, fundraiser: Pick<Fundraiser, 'id' | 'urlSlug'>, options?: EmbedOptions) {
  return embedUrl(origin, fundraiser.urlSlug ?? String(fundraiser.id), options);
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
