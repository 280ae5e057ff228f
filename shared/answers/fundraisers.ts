import * as z from 'zod/mini';
import { ARTIST_STATUSES } from './artists';

// What the fundraiser calls answer (spec part 2 sections 3 and 7; DESIGN.md section 4).

export const FUNDRAISER_STATUSES = ['DRAFT', 'PUBLISHED'] as const;
export type FundraiserStatus = (typeof FUNDRAISER_STATUSES)[number];

export const trackStatusSchema = z.enum(['processing', 'ready', 'failed']);

/** A track as the fundraiser JSON carries it (DESIGN.md section 4). */
export const fundraiserTrackSchema = z.object({
  id: z.int(),
  name: z.string(),
  durationSeconds: z.nullable(z.number()),
  status: trackStatusSchema,
  /** Public 30-second preview URL, once processed. */
  previewPath: z.optional(z.string()),
  /** Full-stream URL, only for callers allowed to stream. */
  file: z.optional(z.string()),
  /** The track's upload id, only for those who may edit the fundraiser (to resubmit the form). */
  uploadId: z.optional(z.string()),
  /** Why processing failed (status 'failed'), only for those who may manage the fundraiser. */
  error: z.optional(z.string()),
});
export type FundraiserTrack = z.infer<typeof fundraiserTrackSchema>;

export const fundraiserArtistSchema = z.object({
  id: z.int(),
  urlSlug: z.string(),
  name: z.string(),
  status: z.enum(ARTIST_STATUSES),
  isPublishable: z.boolean(),
});

export const fundraiserSchema = z.object({
  id: z.int(),
  userId: z.int(),
  artistId: z.int(),
  name: z.string(),
  description: z.string(),
  supportedOrg: z.string(),
  supportedOrgEin: z.string(),
  supportedOrgWebsite: z.optional(z.string()),
  /** Cents. */
  minimumDonation: z.int(),
  donationGoal: z.optional(z.int()),
  genre: z.string(),
  genreSecondary: z.optional(z.string()),
  status: z.enum(FUNDRAISER_STATUSES),
  shareCount: z.int(),
  /** URL of the 400 px JPEG cover; `albumCover` is the upload id the other sizes derive from. */
  image: z.optional(z.string()),
  albumCover: z.optional(z.string()),
  previewTrackName: z.optional(z.string()),
  /** Upload id of the preview track (for the edit form); only for those who may edit. */
  previewTrackFile: z.optional(z.string()),
  /** Public URL the detail page's preview player plays. */
  previewTrackPreview: z.optional(z.string()),
  /** The preview track's processing state and failure message, only for those who may manage it. */
  previewTrackStatus: z.optional(trackStatusSchema),
  previewTrackError: z.optional(z.string()),
  tracksList: z.array(fundraiserTrackSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
  deletedAt: z.optional(z.string()),
  publishedAt: z.optional(z.string()),
  urlSlug: z.optional(z.string()),
  youtubeLink: z.optional(z.string()),
  vimeoLink: z.optional(z.string()),
  hasV1Tracks: z.boolean(),
  hasTracksZip: z.boolean(),
  isPublishable: z.boolean(),
  /** Whether the caller may manage it (its owner or an admin): decided by the server, per caller. */
  canManage: z.boolean(),
  totalRaised: z.optional(z.int()),
  /** Number of donations, for the stats on the detail page. */
  donationCount: z.int(),
  artist: fundraiserArtistSchema,
  tracksZipLink: z.optional(z.string()),
  // The names some screens use for the same facts (spec part 2 section 3).
  fundraisingGoalCents: z.optional(z.int()),
  donationMinimumCents: z.int(),
  charityEin: z.string(),
});
export type Fundraiser = z.infer<typeof fundraiserSchema>;

export const fundraiserListSchema = z.array(fundraiserSchema);
export const fundraiserSearchResultSchema = z.object({
  results: z.array(fundraiserSchema),
  totalCount: z.int(),
  /** Present (true) when more than SEARCH_RESULT_CAP matched: totalCount is the cap, a lower bound. */
  totalCountCapped: z.optional(z.boolean()),
});

/** What saving and music submission answer: enough to navigate (spec part 2 section 7). */
export const fundraiserRefSchema = z.object({ id: z.int(), urlSlug: z.optional(z.string()) });
export type FundraiserRef = z.infer<typeof fundraiserRefSchema>;

/** A donor row of GET /api/fundraisers/{id}/transactions (spec part 2 section 3). */
export const fundraiserTransactionSchema = z.object({
  name: z.string(),
  email: z.string(),
  amountCents: z.int(),
  tipCents: z.int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const fundraiserTransactionsSchema = z.object({
  results: z.array(fundraiserTransactionSchema),
  totalCount: z.int(),
});

/** POST /api/fundraisers/{id}/shares (DESIGN.md wave 3, "shares"): the count after this share. */
export const shareCountSchema = z.object({ shareCount: z.int() });

/**
 * GET /api/fundraisers/{id}/reach (owner, admin; issue 28): how far the fundraiser travelled, all
 * time: completed shares, views of and preview plays in its embedded player, and the donations that
 * began in an embed with what they gave the charity (after refunds). Counts only, no visitor.
 */
export const fundraiserReachSchema = z.object({
  shareCount: z.int(),
  embedViews: z.int(),
  embedPlays: z.int(),
  embedDonations: z.int(),
  embedRaisedCents: z.int(),
});
export type FundraiserReach = z.infer<typeof fundraiserReachSchema>;
