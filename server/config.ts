import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_PROMO_PROJECT_ID, DEFAULT_SITE_NAME, DEFAULT_SITE_TIME_ZONE } from '../shared/constants';
import { DEFAULT_FEE_RATES } from '../shared/fee-cover';
import { canonicalTimeZone, isTimeZone } from '../shared/site-dates';
import { parseS3Url } from './infra/storage/s3-objects';

const KEEP_DAYS_MESSAGE = 'must be a whole number of days from 31 to 36500 (730 unless set)';

// Configuration is read once at start-up, here, and passed in (STYLE.md rule 2). Every variable is
// listed in the README's configuration table.

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());
const flag = (fallback: boolean) =>
  z.preprocess(
    (value) => (value === undefined || value === '' ? fallback : /^(1|true|yes|on)$/i.test(String(value))),
    z.boolean(),
  );

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    DATA_DIR: z.string().default('./data'),
    PUBLIC_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
    SITE_NAME: z.string().min(1).default(DEFAULT_SITE_NAME),
    /** The zone whose calendar dates the money pages show (shared/site-dates.ts). */
    SITE_TIME_ZONE: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .default(DEFAULT_SITE_TIME_ZONE)
        .refine(isTimeZone, 'must be an IANA time zone, like America/Los_Angeles or America/New_York'),
    ),
    CONTACT_EMAIL: z.email().default('hello@soundcause.org'),
    POSTAL_ADDRESS: z.string().default('Soundcause, 2100 SE Division St, Portland, OR 97202'),
    SOCIAL_LINKS: z
      .string()
      .default(
        'Instagram=https://www.instagram.com/soundcause,Facebook=https://www.facebook.com/soundcause,YouTube=https://www.youtube.com/@soundcause',
      ),
    SMTP_URL: optionalString,
    MAIL_FROM: optionalString,
    MAILING_LIST_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
    EVERY_ORG_API_KEY: optionalString,
    EVERY_ORG_API_URL: z.preprocess(emptyAsUndefined, z.url().default('https://partners.every.org/v0.2')),
    /** Where an admin's Disburse sends the money: the giving site's prefilled once-off bank donation. */
    GIVING_SITE_URL: z.preprocess(emptyAsUndefined, z.url().default('https://www.every.org')),
    ADMIN_EMAIL: z.preprocess(emptyAsUndefined, z.email().optional()),
    ADMIN_PASSWORD: optionalString,
    SEED_DEMO: optionalString,
    TRUST_PROXY: flag(false),
    PROMO_PROJECT_ID: z.coerce.number().int().positive().default(DEFAULT_PROMO_PROJECT_ID),
    /**
     * Server processes sharing the port and the SQLite file (node:cluster). 1: the server runs in
     * the process started, as on the small VM; more use more cores (DESIGN.md, several processes).
     */
    WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
    /** GET /metrics answers with `Authorization: Bearer <this>`; unset, it is a 404 and nothing is counted. */
    METRICS_TOKEN: z.preprocess(
      emptyAsUndefined,
      z.string().min(16, 'METRICS_TOKEN must be at least 16 characters (e.g. openssl rand -hex 24).').optional(),
    ),
    /** Where media live: the data folder (local) or an S3-compatible bucket (DESIGN.md, wave 3). */
    MEDIA_STORE: z.enum(['local', 's3']).default('local'),
    /** The S3-compatible store: the media bucket's, and where off-site backups go whatever MEDIA_STORE is. */
    S3_ENDPOINT: z.preprocess(emptyAsUndefined, z.url().optional()),
    S3_REGION: z.preprocess(emptyAsUndefined, z.string().default('us-east-1')),
    S3_BUCKET: optionalString,
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    S3_FORCE_PATH_STYLE: flag(false),
    /** With a bucket: 302 to a presigned GET (true), or the server passes the bytes on itself. */
    MEDIA_REDIRECTS: flag(true),
    /** A CDN (or the bucket's public URL) that serves images and previews by key. */
    MEDIA_PUBLIC_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
    /** Where the deploy kit's hourly timer backs up to (s3://BUCKET/PREFIX); unset, it takes none. */
    BACKUP_S3_URL: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .refine((url) => parseS3Url(url) !== null, 'must be s3://BUCKET or s3://BUCKET/PREFIX')
        .optional(),
    ),
    /** Off-site backups kept: each new one removes all but the newest N there. Unset: all are kept. */
    BACKUP_KEEP: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(10_000).optional()),
    /**
     * Insight's counts are kept per day this many days back; `npm run cli -- prune-insight` folds
     * older days into one row per month (issue 29). Money is never pruned.
     */
    INSIGHT_KEEP_DAYS: z.coerce
      .number({ error: KEEP_DAYS_MESSAGE })
      .int({ error: KEEP_DAYS_MESSAGE })
      .min(31, { error: KEEP_DAYS_MESSAGE })
      .max(36_500, { error: KEEP_DAYS_MESSAGE })
      .default(730),
    /** Track-processing jobs run at once by each server process; each ffmpeg takes about a core. */
    JOB_WORKERS: z.coerce.number().int().min(1).max(8).default(1),
    /**
     * Disk the download formats and Data saver files may take (issue 27); the least recently used
     * go beyond it. Megabytes; a fraction is allowed (tests).
     */
    TRANSCODE_CACHE_MB: z.coerce.number().positive().default(2048),
    /** An ffmpeg to use instead of looking one up (issue 9: a maintained system build first). */
    FFMPEG_PATH: optionalString,
    /** Uploads are refused while the data folder's disk has less free space than this. */
    MIN_FREE_DISK_MB: z.coerce.number().int().min(0).default(1024),
    /** Stripe takes the cards when all three keys are set (DESIGN.md section 2); none: the test provider. */
    STRIPE_SECRET_KEY: optionalString,
    STRIPE_PUBLISHABLE_KEY: optionalString,
    STRIPE_WEBHOOK_SECRET: optionalString,
    /** Points the Stripe SDK at another host (the tests' fake Stripe). */
    STRIPE_API_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
    /**
     * The processor's rates a donor's "Cover the card fee" is worked out at (issue 26): Stripe's
     * rate for the site's account. The defaults are the test provider's own fee.
     */
    FEE_PERCENT: z.preprocess(
      emptyAsUndefined,
      z.coerce
        .number()
        .min(0)
        .max(20)
        .refine((percent) => Number.isInteger(Math.round(percent * 10_000) / 100), 'at most two decimals, like 2.9')
        .default(DEFAULT_FEE_RATES.basisPoints / 100),
    ),
    FEE_FIXED_CENTS: z.preprocess(
      emptyAsUndefined,
      z.coerce.number().int().min(0).max(1000).default(DEFAULT_FEE_RATES.fixedCents),
    ),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    CLIENT_DIST_DIR: z.string().default('dist'),
  })
  .superRefine((env, ctx) => {
    if ((env.ADMIN_EMAIL === undefined) !== (env.ADMIN_PASSWORD === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together.' });
    }
    const stripeKeys = [env.STRIPE_SECRET_KEY, env.STRIPE_PUBLISHABLE_KEY, env.STRIPE_WEBHOOK_SECRET];
    const stripeKeysSet = stripeKeys.filter((key) => key !== undefined).length;
    if (stripeKeysSet !== 0 && stripeKeysSet !== 3) {
      ctx.addIssue({
        code: 'custom',
        message: 'STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET must be set together.',
      });
    }
    if ((env.S3_ACCESS_KEY_ID === undefined) !== (env.S3_SECRET_ACCESS_KEY === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together.' });
    }
    if (env.MEDIA_STORE === 's3' && env.S3_BUCKET === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'MEDIA_STORE=s3 needs S3_BUCKET (and S3_ENDPOINT unless the bucket is on AWS).',
      });
    }
    if (env.NODE_ENV === 'production') {
      // Real money needs a real payment provider: the test provider takes no money at all.
      if (stripeKeysSet !== 3) {
        ctx.addIssue({
          code: 'custom',
          message: 'Stripe keys are required in production (the test provider takes no money).',
        });
      }
      // Production must not fall back to the local defaults that only make sense on a laptop.
      if (!env.PUBLIC_URL) ctx.addIssue({ code: 'custom', message: 'PUBLIC_URL is required in production.' });
      if (!env.SMTP_URL) ctx.addIssue({ code: 'custom', message: 'SMTP_URL is required in production.' });
      if (!env.MAIL_FROM) ctx.addIssue({ code: 'custom', message: 'MAIL_FROM is required in production.' });
    }
  });

export type Config = ReturnType<typeof loadConfig>;

function parseSocialLinks(value: string) {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [label = '', ...rest] = entry.split('=');
      return { label: label.trim(), url: rest.join('=').trim() };
    })
    .filter((link) => link.label && /^https?:\/\//.test(link.url));
}

export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  - ${issue.path.join('.') || 'config'}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const isProduction = e.NODE_ENV === 'production';
  return {
    env: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databasePath: path.join(dataDir, 'soundcause.db'),
    outboxDir: path.join(dataDir, 'outbox'),
    /** The key that signs the grants in guests' stream and download URLs (server/access/url-grants.ts). */
    urlGrantKeyFile: path.join(dataDir, 'url-grants.key'),
    clientDistDir: path.resolve(e.CLIENT_DIST_DIR),
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    siteName: e.SITE_NAME,
    timeZone: canonicalTimeZone(e.SITE_TIME_ZONE),
    contactEmail: e.CONTACT_EMAIL,
    postalAddress: e.POSTAL_ADDRESS,
    socialLinks: parseSocialLinks(e.SOCIAL_LINKS),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `${e.SITE_NAME} <no-reply@soundcause.local>`,
    mailingListUrl: e.MAILING_LIST_URL,
    /** The charity directory also asks Every.org when a key is set (DESIGN.md section 2). */
    everyOrg: e.EVERY_ORG_API_KEY
      ? { apiKey: e.EVERY_ORG_API_KEY, apiUrl: e.EVERY_ORG_API_URL.replace(/\/+$/, '') }
      : undefined,
    givingSiteUrl: e.GIVING_SITE_URL.replace(/\/+$/, ''),
    admin: e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD } : undefined,
    seedDemo: e.SEED_DEMO === undefined ? !isProduction && e.NODE_ENV !== 'test' : /^(1|true|yes)$/i.test(e.SEED_DEMO),
    trustProxy: e.TRUST_PROXY,
    promoProjectId: e.PROMO_PROJECT_ID,
    logLevel: e.LOG_LEVEL,
    webConcurrency: e.WEB_CONCURRENCY,
    metricsToken: e.METRICS_TOKEN,
    /** How to reach the S3-compatible store (media with MEDIA_STORE=s3, off-site backups). */
    s3: {
      endpoint: e.S3_ENDPOINT,
      region: e.S3_REGION,
      accessKeyId: e.S3_ACCESS_KEY_ID,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY,
      forcePathStyle: e.S3_FORCE_PATH_STYLE,
      /** S3_BUCKET whatever MEDIA_STORE is: where media-migrate copies to. */
      bucket: e.S3_BUCKET,
    },
    media: {
      bucket: e.MEDIA_STORE === 's3' ? e.S3_BUCKET : undefined,
      redirects: e.MEDIA_REDIRECTS,
      publicUrl: e.MEDIA_PUBLIC_URL?.replace(/\/+$/, ''),
    },
    backups: { s3Url: e.BACKUP_S3_URL, keep: e.BACKUP_KEEP },
    insightKeepDays: e.INSIGHT_KEEP_DAYS,
    jobWorkers: e.JOB_WORKERS,
    ffmpegPath: e.FFMPEG_PATH,
    transcodeCacheBytes: Math.round(e.TRANSCODE_CACHE_MB * 1024 * 1024),
    minFreeDiskBytes: e.MIN_FREE_DISK_MB * 1024 * 1024,
    /** The rates "Cover the card fee" is worked out at (shared/fee-cover.ts). */
    feeRates: { basisPoints: Math.round(e.FEE_PERCENT * 100), fixedCents: e.FEE_FIXED_CENTS },
    /** Stripe's keys, or undefined: the built-in test provider takes the payments. */
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_PUBLISHABLE_KEY && e.STRIPE_WEBHOOK_SECRET
        ? {
            secretKey: e.STRIPE_SECRET_KEY,
            publishableKey: e.STRIPE_PUBLISHABLE_KEY,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET,
            apiUrl: e.STRIPE_API_URL,
          }
        : undefined,
  };
}
