// Business constants of spec part 1 section 9 and part 2 section 9, and the DESIGN.md decisions.

export const DEFAULT_SITE_NAME = 'Soundcause';

/** SITE_TIME_ZONE's default: where the operator is (its postal address is in Portland, OR). */
export const DEFAULT_SITE_TIME_ZONE = 'America/Los_Angeles';

export const limits = {
  email: 100,
  firstName: 100,
  lastName: 100,
  url: 400,
  passwordMin: 8,
  passwordMax: 150,
  verificationCode: 6,
  resetToken: 200,
  searchTerm: 800,
  charityEin: 100,
  errorMessage: 2000,
  artistName: 100,
  artistDescription: 3000,
  /** The label of one of an artist's four link rows (DESIGN.md wave 3 'corrections'). */
  linkLabel: 50,
  slug: 200,
  uploadId: 200,
} as const;

export const PAGE_SIZE = 20;

/** A route transition shows the top loader only when it takes longer than this (spec part 1 s9). */
export const ROUTE_LOADER_DELAY_MS = 800;

/** Spec part 1 section 9: responsive breakpoints. */
export const DESKTOP_MIN_WIDTH = 1024;

/** The 'Greatest Hits' promo fundraiser (DESIGN.md section 4, overridable with PROMO_PROJECT_ID). */
export const DEFAULT_PROMO_PROJECT_ID = 683;

export const GENRES = [
  'Alternative',
  'Blues',
  "Children's Music",
  'Christian/Gospel',
  'Country',
  'Dance/Electronic',
  'Folk',
  'Jazz',
  'Pop',
  'Rock',
  'Hip Hop/R&B',
  'World',
  'Singer-Songwriter',
  'Spoken Word / Audio',
  'Instrumental',
  'Other',
] as const;

export type Genre = (typeof GENRES)[number];

/** Upload size caps (DESIGN.md section 4), in megabytes. */
export const UPLOAD_LIMITS_MB = { image: 100, track: 150, zip: 1000 } as const;

/**
 * What a legacy album zip may hold (issue 5), read from its directory before it is stored: it is
 * unzipped later by buyers and tools, so it must not be a zip bomb or name files outside its folder.
 */
export const ALBUM_ZIP_LIMITS = {
  entries: 500,
  uncompressedBytes: 2 * 1024 * 1024 * 1024,
  audioExtensions: ['.wav', '.mp3', '.flac', '.m4a', '.aac', '.ogg', '.aiff', '.aif'],
  /** What else an album may carry (issue 9): its artwork, liner notes and lyrics; nothing runnable. */
  otherExtensions: ['.jpg', '.jpeg', '.png', '.gif', '.webp', '.txt', '.md', '.rtf', '.pdf'],
} as const;

/** Widths an uploaded image is re-encoded to, each as WebP and JPEG (issue 3). */
export const IMAGE_WIDTHS = [96, 400, 1200] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

/** Where a rendition of an uploaded image is served. */
export function imageUrl(uploadId: string, width: ImageWidth, format: 'webp' | 'jpg'): string {
  return `/media/images/${uploadId}-${width}.${format}`;
}

/** Every rendition of an uploaded image in one format, as a srcset. */
export function imageSrcSet(uploadId: string, format: 'webp' | 'jpg'): string {
  return IMAGE_WIDTHS.map((width) => `${imageUrl(uploadId, width, format)} ${width}w`).join(', ');
}

/**
 * How wide the pages draw their leading pictures (the `sizes` beside the srcset), known to the
 * server too: it preloads a page's first picture with the page (server/http/first-load.ts), and
 * the browser reuses that download only when both ask for the same rendition.
 */
export const pictureSizes = {
  fundraiserCover: '(min-width: 1024px) 400px, calc(100vw - 32px)',
  featuredTile: '(min-width: 1024px) 280px, 75vw',
  /** An artist's tile: one across a phone. */
  gridTile: '(min-width: 1024px) 280px, (min-width: 480px) 50vw, 100vw',
  /**
   * An album's tile: two across a phone (fundraiser-tile.css), half its width, where the artists'
   * 100vw had a phone fetch the 1200 px rendition for a 175 px tile (issue 24).
   */
  fundraiserTile: '(min-width: 1024px) 280px, 50vw',
  artistPicture: '(min-width: 1024px) 320px, 100vw',
} as const;

/**
 * The fundraiser page's video players (spec part 2 section 5: only the code is stored, the address
 * is ours). The server's Content-Security-Policy lets these, and no other sites, into frames.
 */
export const VIDEO_EMBED_ORIGINS = {
  youtube: 'https://www.youtube-nocookie.com',
  vimeo: 'https://player.vimeo.com',
} as const;

/**
 * Where charity logos may come from: Every.org's image host. The directory hands out no other
 * logo address, and the Content-Security-Policy lets pages load images from there and nowhere else.
 */
export const CHARITY_LOGO_SOURCE = 'https://res.cloudinary.com/everydotorg/';

/** Spec part 2 sections 5 and 9: fundraiser limits. Money in cents. */
export const fundraiserLimits = {
  name: 75,
  description: 5000,
  videoCode: 200,
  trackName: 100,
  tracksMax: 40,
  minimumDonationMinCents: 200,
  minimumDonationMaxCents: 1_000_000,
  goalMinCents: 200,
  goalMaxCents: 10_000_000,
} as const;

/** The goal bar on the fundraiser page (spec part 2 section 2). */
export const GOAL_BAR_SEGMENTS = 10;

/** Filled goal-bar segments: floor(min(raised, goal) * 10 / goal). */
export function goalSegmentsFilled(raisedCents: number, goalCents: number): number {
  if (goalCents <= 0) return 0;
  return Math.floor((Math.min(raisedCents, goalCents) * GOAL_BAR_SEGMENTS) / goalCents);
}

/**
 * Artist and fundraiser search count this far and no further (issue 13): past it, the total is
 * given as this number with `totalCountCapped` and shown as '10,000+'. A search by words also
 * ranks no more: its results are the best of its newest this-many matches. So the broadest prefix
 * ('a') costs what 10,000 matches cost, however large the site grows.
 */
export const SEARCH_RESULT_CAP = 10_000;

/** Debounce of the charity search and the admin fundraiser picker (spec part 2 section 9). */
export const SEARCH_DEBOUNCE_MS = 300;

/** The wizard's 'Creating your fundraiser...' and the edit page's overlay wait this long (spec). */
export const SLOW_SUBMIT_OVERLAY_MS = 1000;

/** Featured charities on the home page (spec part 2 section 9). */
export const FEATURED_CHARITY_COUNT = 10;

/**
 * A cookie the page can read, set and cleared by the server beside the HttpOnly session cookie:
 * it says only that someone may be signed in, so a guest's page never asks GET /api/user (whose
 * 401 would log an error in every guest's console). It grants nothing; the session cookie does.
 */
export const SIGNED_IN_HINT_COOKIE = 'soundcause_signed_in';

/**
 * In the address of the requests that save a track for offline listening (client/offline): a
 * stream the server sends then is a copy being kept, not a play (issue 29's insight counts plays).
 * A query, not a header: a header would make the redirect to a bucket a CORS preflight.
 */
export const OFFLINE_SAVE_QUERY = { name: 'save', value: 'offline' } as const;
