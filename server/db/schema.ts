import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

// Timestamps are stored as integer milliseconds since the epoch.
const timestamp = (name: string) => integer(name, { mode: 'timestamp_ms' });
const defaultNow = (name: string) =>
  timestamp(name)
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`);
const createdAt = () => defaultNow('created_at');
const updatedAt = () => defaultNow('updated_at').$defaultFn(() => new Date());

export const users = sqliteTable('users', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  firstName: text('first_name'),
  lastName: text('last_name'),
  isEmailVerified: integer('is_email_verified', { mode: 'boolean' }).notNull().default(false),
  isAdmin: integer('is_admin', { mode: 'boolean' }).notNull().default(false),
  /**
   * A deleted account keeps its row (its fundraisers and donations refer to it) with the personal
   * data scrubbed: the email becomes a placeholder, so the address can sign up again.
   */
  deletedAt: timestamp('deleted_at'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Session ids are never stored: only their SHA-256, so a leaked database opens no sessions. */
export const sessions = sqliteTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
);

/** One live code per user; replaced on resend. */
export const emailVerificationCodes = sqliteTable('email_verification_codes', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull(),
  expiresAt: timestamp('expires_at').notNull(),
  failedAttempts: integer('failed_attempts').notNull().default(0),
  sentAt: timestamp('sent_at').notNull(),
});

/**
 * A change of email address waiting for its code: the new address must be proven before it
 * replaces the old one. One per user; asking again replaces it.
 */
export const emailChanges = sqliteTable('email_changes', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  newEmail: text('new_email').notNull(),
  codeHash: text('code_hash').notNull(),
  expiresAt: timestamp('expires_at').notNull(),
  failedAttempts: integer('failed_attempts').notNull().default(0),
  sentAt: timestamp('sent_at').notNull(),
});

export const passwordResetTokens = sqliteTable(
  'password_reset_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at').notNull(),
    usedAt: timestamp('used_at'),
    createdAt: createdAt(),
  },
  (table) => [index('password_reset_tokens_user_idx').on(table.userId)],
);

/** Failed attempts and throttled actions, counted per bucket and key within a sliding window. */
export const throttleEvents = sqliteTable(
  'throttle_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    bucket: text('bucket').notNull(),
    key: text('key').notNull(),
    at: timestamp('at').notNull(),
  },
  (table) => [index('throttle_events_lookup_idx').on(table.bucket, table.key, table.at)],
);

export const mailingListSubscribers = sqliteTable('mailing_list_subscribers', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  email: text('email').notNull().unique(),
  createdAt: createdAt(),
});

/** Page views and events counted per day: no cookies, no visitor ids, no personal data. */
export const analyticsDailyCounts = sqliteTable(
  'analytics_daily_counts',
  {
    day: text('day').notNull(),
    kind: text('kind', { enum: ['pageview', 'event', 'referrer'] }).notNull(),
    name: text('name').notNull(),
    count: integer('count').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.day, table.kind, table.name] })],
);

/** Small key/value facts about this installation (e.g. when demo content was seeded). */
export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/**
 * Uploaded files, stored under DATA_DIR/media with generated names. An upload nothing refers to
 * is removed after a day (cleanupUnusedUploads in features/uploads/service.ts).
 */
export const uploads = sqliteTable(
  'uploads',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['image', 'track', 'zip'] }).notNull(),
    /** What the content turned out to be, by its bytes: the stored original's extension. */
    format: text('format', { enum: ['jpeg', 'png', 'wav', 'mp3', 'zip'] }),
    /** The name the user's file had, for display only; never used to build a path. */
    originalName: text('original_name').notNull(),
    bytes: integer('bytes').notNull(),
    /**
     * The CRC-32 of the kept original (tracks and album zips), computed as it streamed to disk, so
     * the album download's zip needs no pass over the files to checksum them (issue 13). Null for
     * images (only their renditions are kept) and for uploads from before it was recorded, until
     * the first download computes it; it holds for `bytes` bytes.
     */
    crc32: integer('crc32'),
    createdAt: createdAt(),
  },
  (table) => [index('uploads_user_idx').on(table.userId), index('uploads_created_idx').on(table.createdAt)],
);

export const artists = sqliteTable(
  'artists',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull(),
    website: text('website').notNull().default(''),
    /**
     * The four link rows (spec part 1 section 4; shared/schemas/artists.ts): `website{n}` is the
     * label shown on the artist's page, `url{n}` its address. '' when the row is empty.
     */
    website0: text('website0').notNull().default(''),
    url0: text('url0').notNull().default(''),
    website1: text('website1').notNull().default(''),
    url1: text('url1').notNull().default(''),
    website2: text('website2').notNull().default(''),
    url2: text('url2').notNull().default(''),
    website3: text('website3').notNull().default(''),
    url3: text('url3').notNull().default(''),
    profileImageId: text('profile_image_id').references(() => uploads.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['DRAFT', 'PUBLISHED'] })
      .notNull()
      .default('DRAFT'),
    urlSlug: text('url_slug').notNull().unique(),
    publishedAt: timestamp('published_at'),
    /** Soft delete: an artist's fundraisers (and their donations) outlive it in the records. */
    deletedAt: timestamp('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('artists_user_idx').on(table.userId),
    // Serves 'recent artists' (status, then newest first) without a sort, skipping deleted rows.
    index('artists_recent_idx')
      .on(table.status, table.publishedAt, table.id)
      .where(sql`${table.deletedAt} IS NULL`),
  ],
);

/** Slugs an artist had before a rename: links shared with them keep working (issue 9). */
export const artistSlugHistory = sqliteTable(
  'artist_slug_history',
  {
    slug: text('slug').primaryKey(),
    artistId: integer('artist_id')
      .notNull()
      .references(() => artists.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [index('artist_slug_history_artist_idx').on(table.artistId)],
);

/**
 * The charity directory (issue 4): registered US 501(c)(3) organisations by EIN (9 digits, no
 * dash), from the bundled list, an imported IRS Business Master File, or Every.org.
 */
export const charities = sqliteTable('charities', {
  ein: text('ein').primaryKey(),
  name: text('name').notNull(),
  city: text('city').notNull().default(''),
  state: text('state').notNull().default(''),
  websiteUrl: text('website_url'),
  logoUrl: text('logo_url'),
  /** JSON array of cause tags, e.g. ["health", "children"]. */
  tags: text('tags').notNull().default('[]'),
  source: text('source', { enum: ['bundled', 'irs', 'every.org'] }).notNull(),
  updatedAt: updatedAt(),
});

/**
 * Fundraisers (spec part 2 section 3). A draft is built step by step by the wizard, so the details
 * start empty; the charity's name and website are copied in when it is chosen, so the record
 * stays readable whatever happens to the directory.
 */
export const fundraisers = sqliteTable(
  'fundraisers',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    artistId: integer('artist_id')
      .notNull()
      .references(() => artists.id),
    name: text('name').notNull().default(''),
    description: text('description').notNull().default(''),
    /** 9 digits, no dash. */
    charityEin: text('charity_ein').notNull(),
    charityName: text('charity_name').notNull(),
    charityWebsite: text('charity_website'),
    minimumDonationCents: integer('minimum_donation_cents').notNull(),
    donationGoalCents: integer('donation_goal_cents'),
    genre: text('genre').notNull().default(''),
    genreSecondary: text('genre_secondary'),
    status: text('status', { enum: ['DRAFT', 'PUBLISHED'] })
      .notNull()
      .default('DRAFT'),
    shareCount: integer('share_count').notNull().default(0),
    albumCoverId: text('album_cover_id').references(() => uploads.id, { onDelete: 'set null' }),
    previewTrackName: text('preview_track_name').notNull().default(''),
    previewTrackUploadId: text('preview_track_upload_id').references(() => uploads.id, { onDelete: 'set null' }),
    youtubeLink: text('youtube_link').notNull().default(''),
    vimeoLink: text('vimeo_link').notNull().default(''),
    /** Legacy v1 projects: tracks are names only and the music is one uploaded zip. */
    hasV1Tracks: integer('has_v1_tracks', { mode: 'boolean' }).notNull().default(false),
    tracksZipUploadId: text('tracks_zip_upload_id').references(() => uploads.id, { onDelete: 'set null' }),
    /**
     * The row's id in the old catalogue it was imported from (`npm run cli -- import-legacy`):
     * unique, so importing the same catalogue again finds it and adds nothing.
     */
    legacyExternalId: text('legacy_external_id').unique(),
    /** The preview track's processing, as for a track (see fundraiser_tracks). */
    previewTrackStatus: text('preview_track_status', { enum: ['processing', 'ready', 'failed'] })
      .notNull()
      .default('processing'),
    previewTrackStreamFile: text('preview_track_stream_file'),
    previewTrackPreviewFile: text('preview_track_preview_file'),
    previewTrackLoudnessLufs: real('preview_track_loudness_lufs'),
    previewTrackDurationSeconds: integer('preview_track_duration_seconds'),
    previewTrackError: text('preview_track_error'),
    /** Given when the draft first gets a name; fixed once published so shared links last. */
    urlSlug: text('url_slug').unique(),
    publishedAt: timestamp('published_at'),
    /** Soft delete: no more donations, gone from lists, but the donations made stay on record. */
    deletedAt: timestamp('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('fundraisers_user_idx').on(table.userId),
    index('fundraisers_artist_idx').on(table.artistId),
    // Serves 'recent fundraisers' (status, then newest first) without a sort, skipping deleted rows.
    index('fundraisers_recent_idx')
      .on(table.status, table.publishedAt, table.id)
      .where(sql`${table.deletedAt} IS NULL`),
    // The browse filters (issue 13), each read newest first without a sort and counted from the
    // index alone. Status leads, as in fundraisers_recent_idx, so the planner prefers these (two
    // equal columns) without statistics. The genre filter matches either genre: one index each,
    // merged by published_at. The charity index carries both genres, so EIN and genre together
    // are answered from it too.
    index('fundraisers_charity_recent_idx')
      .on(table.status, table.charityEin, table.publishedAt, table.id, table.genre, table.genreSecondary)
      .where(sql`${table.deletedAt} IS NULL`),
    index('fundraisers_genre_recent_idx')
      .on(table.status, table.genre, table.publishedAt, table.id)
      .where(sql`${table.deletedAt} IS NULL`),
    index('fundraisers_genre_secondary_recent_idx')
      .on(table.status, table.genreSecondary, table.publishedAt, table.id)
      .where(sql`${table.deletedAt} IS NULL`),
  ],
);

/** Slugs a fundraiser had before a rename: a copied invite link keeps working (issue 9). */
export const fundraiserSlugHistory = sqliteTable(
  'fundraiser_slug_history',
  {
    slug: text('slug').primaryKey(),
    fundraiserId: integer('fundraiser_id')
      .notNull()
      .references(() => fundraisers.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [index('fundraiser_slug_history_fundraiser_idx').on(table.fundraiserId)],
);

/**
 * A fundraiser's tracks in album order. A track with an upload is 'processing' until its job
 * (server/features/fundraisers/track-processing.ts) has made the renditions, then 'ready' or
 * 'failed' with a message for the owner.
 */
export const fundraiserTracks = sqliteTable(
  'fundraiser_tracks',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    fundraiserId: integer('fundraiser_id')
      .notNull()
      .references(() => fundraisers.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    /** The original upload; none for legacy v1 tracks, whose audio is in the album zip. */
    uploadId: text('upload_id').references(() => uploads.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['processing', 'ready', 'failed'] })
      .notNull()
      .default('processing'),
    durationSeconds: integer('duration_seconds'),
    /** Generated names of the renditions under DATA_DIR/media/streams and /previews. */
    streamFile: text('stream_file'),
    previewFile: text('preview_file'),
    /** Integrated loudness of the original (EBU R128), so a player can normalise. */
    loudnessLufs: real('loudness_lufs'),
    /** Why processing failed, in words for the owner. */
    error: text('error'),
    createdAt: createdAt(),
  },
  (table) => [index('fundraiser_tracks_fundraiser_idx').on(table.fundraiserId, table.position)],
);

/**
 * Payments: donations to fundraisers, and gifts to the platform itself (the support page: no
 * fundraiser, a tip only). A row is made with its payment intent and fulfilled exactly once
 * (fulfilPayment in server/features/donations/service.ts). The charity and the fundraiser's minimum are copied
 * in when the donation is made: what was given to whom, and what of it was tax-deductible, does
 * not change when the fundraiser does later. Only succeeded donations count.
 */
export const donations = sqliteTable(
  'donations',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** Null for a gift to the platform. */
    fundraiserId: integer('fundraiser_id').references(() => fundraisers.id),
    paymentIntentId: text('payment_intent_id').notNull().unique(),
    /** Which payment provider holds the intent: 'stripe', or 'test' (the built-in test provider). */
    provider: text('provider', { enum: ['stripe', 'test'] })
      .notNull()
      .default('test'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    name: text('name').notNull(),
    /** The donation alone: the charity's money. */
    amountCents: integer('amount_cents').notNull(),
    /** The platform's tip on top. */
    tipCents: integer('tip_cents').notNull().default(0),
    /**
     * What the donor added so that the charity gets the whole donation after the processor's fee
     * (issue 26: "Cover the card fee"); the charity's money, tax-deductible like the donation.
     */
    feeCoverCents: integer('fee_cover_cents').notNull().default(0),
    /**
     * A gift (issue 26): the album goes to the recipient's email (the purchase's), the receipt to
     * the giver (this row's email). Null for a donation for oneself.
     */
    giftRecipientName: text('gift_recipient_name'),
    giftRecipientEmail: text('gift_recipient_email'),
    giftMessage: text('gift_message'),
    /** The day the gift email goes out, in the site's time zone ("2026-12-24"); null: at once. */
    giftDeliverOn: text('gift_deliver_on'),
    /** When the gift email was sent (once; the gift job checks it). */
    giftSentAt: timestamp('gift_sent_at'),
    /** The fundraiser's minimum when the donation was made (the tax-deductible part is above it). */
    minimumCents: integer('minimum_cents').notNull().default(0),
    charityEin: text('charity_ein'),
    charityName: text('charity_name'),
    /**
     * Where the donation began: 'embed' when the donor came from the fundraiser's embedded player
     * on another site (issue 28), else null. Nothing about the donor's visit is kept.
     */
    source: text('source', { enum: ['embed'] }),
    /**
     * 'refunded' once the whole payment went back (refunds, or a dispute lost): the purchase goes
     * with it, and comes back if a refund fails. Refunded in part, or disputed, it stays
     * 'succeeded'. What the payment's money did is in money_journal, not here.
     */
    status: text('status', { enum: ['pending', 'succeeded', 'failed', 'refunded'] })
      .notNull()
      .default('pending'),
    /**
     * When the fee job stopped asking the processor for the fee it never reported: the payment
     * counts at the estimated fee meanwhile, and the admin's Transactions tab says so.
     */
    feeUnreportedAt: timestamp('fee_unreported_at'),
    succeededAt: timestamp('succeeded_at'),
    refundedAt: timestamp('refunded_at'),
    receiptSentAt: timestamp('receipt_sent_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('donations_fundraiser_idx').on(table.fundraiserId, table.status, table.createdAt),
    // A donor's payments by email, compared without case (the giving history). Without the status:
    // a fulfilment's change of status does not have to move it (issue 23's fulfilment benchmark).
    index('donations_email_idx').on(sql`lower(${table.email})`),
    index('donations_status_idx').on(table.status, table.succeededAt),
    // The name each charity was given under (disbursements). Without the status: a fulfilment's
    // change of status does not have to move it (issue 23's fulfilment benchmark).
    index('donations_charity_idx').on(table.charityEin),
  ],
);

/**
 * What a succeeded donation to a fundraiser gives: the album, to the donor's email address. A
 * refund revokes it. The receipt's download link is a token stored hashed here.
 */
export const purchases = sqliteTable(
  'purchases',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    donationId: integer('donation_id')
      .notNull()
      .unique()
      .references(() => donations.id),
    fundraiserId: integer('fundraiser_id')
      .notNull()
      .references(() => fundraisers.id),
    email: text('email').notNull(),
    downloadTokenHash: text('download_token_hash'),
    downloadExpiresAt: timestamp('download_expires_at'),
    /**
     * The link's token in plain text, only while its receipt is being sent (cleared once the
     * receipt is recorded as sent): a retry after a send whose outcome was lost (a crash, a
     * dropped SMTP connection) sends the very same message, whose link works (issue 14).
     */
    receiptToken: text('receipt_token'),
    revokedAt: timestamp('revoked_at'),
    createdAt: createdAt(),
  },
  (table) => [
    // Every question asked of purchases names the buyer's email (can-stream, url-grants, the
    // library): one index, and one page less for every fulfilment to write.
    index('purchases_email_idx').on(sql`lower(${table.email})`, table.fundraiserId),
    // A receipt's link, once it has one: a purchase is made without it, and is then not in this
    // index at all (one page less for every fulfilment to write).
    uniqueIndex('purchases_download_token_hash_unique')
      .on(table.downloadTokenHash)
      .where(sql`download_token_hash IS NOT NULL`),
  ],
);

export const JOURNAL_KINDS = [
  'charge',
  'fee_cover',
  'fee',
  'refund',
  'refund_reversed',
  'dispute_opened',
  'dispute_won',
  'dispute_lost',
  'disbursement',
] as const;
export type JournalKind = (typeof JOURNAL_KINDS)[number];

/**
 * Every movement of money, one append-only row each (DESIGN.md "Contract details for wave 3",
 * money journal; server/features/journal/). A row is never changed nor deleted (triggers refuse
 * it, migration 0020): a correction is a new row. Its cents are split into what it moves for the
 * charity, the platform and the processor, signed (+ to that party); each is keyed by the
 * provider's object id, unique, so a redelivered event adds nothing. Every figure the product
 * shows of money is a sum over these rows.
 */
export const moneyJournal = sqliteTable(
  'money_journal',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** The provider's object id (pi_…, txn_…, re_…, dp_…), or ours for what has none (a disbursement). */
    providerId: text('provider_id').notNull().unique(),
    kind: text('kind', { enum: JOURNAL_KINDS }).notNull(),
    /** The payment the row is about; null for a disbursement. */
    donationId: integer('donation_id').references(() => donations.id),
    disbursementId: integer('disbursement_id').references(() => disbursements.id),
    /** Copied from the payment (or the disbursement), so the sums by charity and fundraiser need no join. */
    fundraiserId: integer('fundraiser_id'),
    charityEin: text('charity_ein'),
    charityCents: integer('charity_cents').notNull().default(0),
    platformCents: integer('platform_cents').notNull().default(0),
    processorCents: integer('processor_cents').notNull().default(0),
    /** A fee row counted at the estimate, until the processor reports the fee. */
    estimated: integer('estimated', { mode: 'boolean' }).notNull().default(false),
    occurredAt: timestamp('occurred_at').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    // Sums by charity (balances, the ledger) and by fundraiser (totals) read only the index. A
    // fundraiser's total is its money, never a fee: fee rows stay out of its index, one page less
    // for every fulfilment to write (issue 23's fulfilment benchmark).
    index('money_journal_charity_idx').on(table.charityEin, table.kind, table.charityCents),
    // By date too, so a fundraiser's days (issue 29's insight) are ranges of the same index: its
    // total reads every entry either way, so the date costs the sums nothing.
    index('money_journal_fundraiser_day_idx')
      .on(table.fundraiserId, table.occurredAt, table.kind, table.charityCents)
      .where(sql`kind <> 'fee'`),
    // A payment's rows, read at each of its events. (No index by date: the reconciliation, an
    // admin's occasional question, reads the table; each index costs every fulfilment a page.)
    index('money_journal_donation_idx').on(table.donationId),
  ],
);

/** Payment provider events handled so far (webhooks arrive twice, late and out of order). */
export const paymentEvents = sqliteTable('payment_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: defaultNow('received_at'),
});

/**
 * The built-in test payment provider's intents (DESIGN.md section 2): what Stripe keeps for a
 * real payment, kept here when no Stripe keys are set.
 */
export const testPaymentIntents = sqliteTable('test_payment_intents', {
  id: text('id').primaryKey(),
  clientSecret: text('client_secret').notNull().unique(),
  amountCents: integer('amount_cents').notNull(),
  status: text('status', { enum: ['requires_payment_method', 'succeeded'] })
    .notNull()
    .default('requires_payment_method'),
  /** The last refusal ('Your card was declined.'), shown when the donor comes back to pay. */
  lastError: text('last_error'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Money paid out to a charity (spec part 2 sections 3 and 4). An admin's Disburse starts one
 * PENDING with a single-use callback secret (stored hashed) and sends the admin to the giving site;
 * the callback, or the admin's button, makes it COMPLETE or CANCELED, once. A manual one is
 * recorded COMPLETE. Only COMPLETE rows count as disbursed (server/features/disbursements/balances.ts).
 */
export const disbursements = sqliteTable(
  'disbursements',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    ein: text('ein').notNull(),
    charityName: text('charity_name').notNull(),
    status: text('status', { enum: ['PENDING', 'COMPLETE', 'CANCELED', 'FAILED'] })
      .notNull()
      .default('PENDING'),
    /** 'MANUAL', or the giving site's host the money went through. */
    source: text('source').notNull(),
    amountCents: integer('amount_cents').notNull(),
    notes: text('notes'),
    /**
     * A manual disbursement of more than was outstanding, which the admin confirmed: what was
     * outstanding then (null for every other disbursement).
     */
    overriddenOutstandingCents: integer('overridden_outstanding_cents'),
    /** sha256 of the callback secret while it may still be used; cleared when it is. */
    callbackSecretHash: text('callback_secret_hash'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finalizedAt: timestamp('finalized_at'),
  },
  (table) => [
    index('disbursements_ein_idx').on(table.ein, table.createdAt),
    // At most one PENDING per charity, even if two admins press Disburse at the same moment.
    uniqueIndex('disbursements_one_pending_idx')
      .on(table.ein)
      .where(sql`status = 'PENDING'`),
  ],
);

/** The home page's featured fundraisers, in the order admins chose. */
export const featuredFundraisers = sqliteTable('featured_fundraisers', {
  fundraiserId: integer('fundraiser_id')
    .primaryKey()
    .references(() => fundraisers.id, { onDelete: 'cascade' }),
  position: integer('position').notNull(),
});

/**
 * The durable job queue (DESIGN.md section 3, Media): work that must not run on the request path
 * and must survive a restart. See server/infra/jobs/queue.ts.
 */
export const jobs = sqliteTable(
  'jobs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    kind: text('kind').notNull(),
    /** JSON; each kind's handler parses its own payload. */
    payload: text('payload').notNull(),
    status: text('status', { enum: ['queued', 'running', 'done', 'failed'] })
      .notNull()
      .default('queued'),
    /** Claims so far, counted when claimed; a claim the server's own crash cut short is given back. */
    attempts: integer('attempts').notNull().default(0),
    /**
     * Runs cut short by the server stopping (a crash, a restart). They do not use up attempts, but
     * a job that keeps taking the server down with it still ends (see recoverAbandoned).
     */
    interruptions: integer('interruptions').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    runAt: defaultNow('run_at'),
    lockedAt: timestamp('locked_at'),
    /**
     * The server process running it (`bootId/pid/startTicks`, server/infra/processes/identity.ts):
     * a running job is taken up again only once that process has ended, never under a live one.
     */
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('jobs_due_idx').on(table.status, table.runAt)],
);

/**
 * Processes a server started and is waiting on (ffmpeg), recorded so that whoever starts after a
 * crash can end the ones left running and remove what they half-wrote, before their jobs run
 * again. See server/infra/processes/registry.ts.
 */
export const childProcesses = sqliteTable('child_processes', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  /**
   * The child, as `bootId/pid/startTicks` (server/infra/processes/identity.ts); null until it has
   * started (the record is written first, so that no crash leaves a child no record names).
   */
  process: text('process'),
  /** The server that started it, the same way: it is abandoned once that process has ended. */
  owner: text('owner').notNull(),
  /** JSON array: the arguments it was started with; its command line ends with them. */
  args: text('args').notNull(),
  /** JSON array: the files it writes, relative to DATA_DIR, removed when it is abandoned. */
  outputs: text('outputs').notNull(),
  startedAt: defaultNow('started_at'),
});

/**
 * How often each kind of cached data has changed, shared by every process on the file
 * (server/db/changes.ts): 'public' and 'sessions' are counted by triggers each connection sets on
 * the tables of that scope, 'grants' by whoever revokes access to music. A process compares
 * these with what it saw when it filled its caches.
 */
export const changeVersions = sqliteTable('change_versions', {
  scope: text('scope').primaryKey(),
  version: integer('version').notNull().default(0),
});

/**
 * Bytes promised to uploads still streaming (server/infra/storage/upload-reservations.ts), here so
 * that every server process counts every other's: the pending-upload quota and the free-disk guard
 * see all of them. A row belongs to the process writing the upload and goes with it.
 */
export const uploadReservations = sqliteTable('upload_reservations', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  userId: integer('user_id').notNull(),
  bytes: integer('bytes').notNull(),
  /** The server process receiving the upload (server/infra/processes/identity.ts). */
  owner: text('owner').notNull(),
  createdAt: createdAt(),
});

/**
 * The year-end statements emailed (issue 26: `send-statements --year`): one row per donor and year,
 * claimed before the email is queued, so running the command again sends nobody a second one.
 */
export const givingStatements = sqliteTable(
  'giving_statements',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** The donor's email, lower-cased. */
    email: text('email').notNull(),
    year: integer('year').notNull(),
    sentAt: timestamp('sent_at'),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('giving_statements_email_year_unique').on(table.email, table.year)],
);

/**
 * Tracks made in another format than their original (issue 27: album downloads in MP3, FLAC …,
 * and the offline Data saver): a cache on disk (media/transcodes, or the bucket), one row per file,
 * keyed by everything the file depends on (the original upload, the format, the encoder's
 * settings, the tags and cover written into it), so an edit of the album makes new keys and never
 * serves a stale file. A row is asked for ('preparing', with its job), then 'ready' with its file,
 * or 'failed'; ready rows are evicted least recently used past TRANSCODE_CACHE_MB.
 */
export const transcodes = sqliteTable(
  'transcodes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    cacheKey: text('cache_key').notNull(),
    /** The original it is made from (uploads.id). */
    uploadId: text('upload_id').notNull(),
    /** A download format id, or 'offline-low'. */
    format: text('format').notNull(),
    /** The track it was asked for, to name it when it fails (a track may change; the key says what the file is). */
    trackId: integer('track_id'),
    /** JSON: what the job makes (server/infra/transcodes/recipe.ts). */
    recipe: text('recipe').notNull(),
    status: text('status', { enum: ['preparing', 'ready', 'failed'] }).notNull(),
    /** The file's name under media/transcodes, once ready. */
    file: text('file'),
    bytes: integer('bytes'),
    /** The file's CRC-32, so a zip of transcodes is written in one pass (zip-stream.ts). */
    crc32: integer('crc32'),
    error: text('error'),
    createdAt: createdAt(),
    lastUsedAt: defaultNow('last_used_at'),
  },
  (table) => [
    uniqueIndex('transcodes_cache_key_unique').on(table.cacheKey),
    index('transcodes_lru_idx').on(table.status, table.lastUsedAt),
    // The hourly sweep asks of each file in media/transcodes whether a row names it.
    index('transcodes_file_idx').on(table.file),
  ],
);

/**
 * What happened around a fundraiser, counted per day in the site's time zone: views of and preview
 * plays in its embedded player and completed shares (issue 28); page views by where they came
 * from, previews and streams begun, downloads by format (issue 29's insight). Counts only: no
 * cookies, no visitor, nothing personal; a year of them is a few thousand rows per fundraiser.
 * `day` is "2026-11-29", or "2026-11" for a month whose days were folded into one row
 * (`npm run cli -- prune-insight`).
 */
export const fundraiserDailyCounts = sqliteTable(
  'fundraiser_daily_counts',
  {
    fundraiserId: integer('fundraiser_id')
      .notNull()
      .references(() => fundraisers.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    kind: text('kind', {
      enum: ['embed_view', 'embed_play', 'share', 'page_view', 'preview_play', 'stream', 'download'],
    }).notNull(),
    /**
     * What a count is of, within its kind: a page view's source (another site's host, 'site',
     * 'direct'), a download's format id; '' for the kinds that have none.
     */
    detail: text('detail').notNull().default(''),
    count: integer('count').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.fundraiserId, table.day, table.kind, table.detail] })],
);
