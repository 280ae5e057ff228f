import type { StreamGrants } from './access/stream-grants';
import type { UrlGrants } from './access/url-grants';
import type { Config } from './config';
import type { Db } from './db/client';
import type { FfmpegRunner } from './infra/audio/ffmpeg';
import type { EveryOrgClient } from './infra/charity-directory/every-org';
import type { Mailer } from './infra/email/mailer';
import type { Metrics } from './infra/metrics';
import type { Logger } from './infra/logger';
import type { SessionUser } from './infra/security/session-store';
import type { StripeProvider } from './infra/payments/stripe-provider';
import type { TestProvider } from './infra/payments/test-provider';
import type { MediaStore } from './infra/storage/media';
import type { UploadReservations } from './infra/storage/upload-reservations';

// What services receive: the outside world (built once at start-up) and who is asking. These live
// below the HTTP layer so that services import nothing from it (docs/architecture.md).

/** Everything a service needs from the outside world, built once at start-up. */
export type Deps = {
  config: Config;
  db: Db;
  mailer: Mailer;
  logger: Logger;
  media: MediaStore;
  /** Bytes held for uploads still streaming, counted by the upload quota and the free-disk guard. */
  uploadsInFlight: UploadReservations;
  /** Runs ffmpeg (the track pipeline's), so that no process outlives the server. */
  ffmpeg: FfmpegRunner;
  /** Who takes card payments: Stripe with its keys, else the built-in test provider. */
  payments: StripeProvider | TestProvider;
  /**
   * canStream's recent answers per session and track (server/access/stream-grants.ts); whatever
   * revokes access clears them.
   */
  streamGrants: StreamGrants;
  /** Signs and checks the grants that stream and download URLs carry for guests (access/url-grants.ts). */
  urlGrants: UrlGrants;
  /** The charity directory's remote source; null without EVERY_ORG_API_KEY. */
  everyOrg: EveryOrgClient | null;
  /** What GET /metrics reports (requests, jobs, fulfilments, SQLite's lock); records nothing without METRICS_TOKEN. */
  metrics: Metrics;
  /**
   * Runs work after the answer has gone (e.g. a password reset's email), so how long the answer
   * took tells nothing about that work. setImmediate in the app; tests may hold the tasks.
   */
  afterResponse: (task: () => void | Promise<void>) => void;
};

/** The logged-in caller: the session's id hash and its user, as loaded for this request. */
export type Session = { idHash: string; user: SessionUser };

/** What a shared link's preview shows (Open Graph and Twitter cards). */
export type ShareCard = {
  title: string;
  description: string;
  imagePath?: string;
  path: string;
  /** Open Graph's kind of page: an album unless it says otherwise. */
  type?: 'music.album' | 'website';
  /** The page's embedded player (issue 28): its path and frame, for Twitter's player card. */
  player?: { path: string; width: number; height: number };
  /** Whether GET /api/oembed answers for this page: its head then says where (oEmbed discovery). */
  oEmbed?: boolean;
};

/**
 * What the server tells of an address before the app loads (server/http/client-app.ts): a public
 * page's share card; that what it shows lives at another address now (an id, or a slug from
 * before a rename); nothing ('plain': a static page, or a draft, which the app shows or hides
 * with the visitor's session); or that there is no such page (404).
 */
export type PageInfo =
  { kind: 'card'; card: ShareCard } | { kind: 'moved'; path: string } | { kind: 'plain' } | { kind: 'missing' };

/**
 * Who may keep a copy of a file, decided by a service: `public` (shared caches too), `private`
 * (the caller's browser only) or `none` (nobody). `immutable` when the URL names this very
 * content (a `?v=` that matches the file), so it can never change under that URL.
 */
export type CachePolicy = { cache: 'public' | 'private' | 'none'; immutable: boolean };
