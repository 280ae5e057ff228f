import { z } from 'zod';
import { fundraiserLimits as max, GENRES, limits } from '../constants';
import { messages } from '../messages';
import { formatWholeDollars, parseDollarsToCents } from '../money';
import { ARTIST_STATUSES } from './artists';
import { normaliseEin } from './charities';
import { optionalText, pageParam, pageSizeParam, requiredText, searchTermParam } from './text';
import { albumZipFileField } from './uploads';

// Fundraiser payloads and answers (spec part 2 sections 3, 5 and 7; DESIGN.md section 4).

export const FUNDRAISER_STATUSES = ['DRAFT', 'PUBLISHED'] as const;
export type FundraiserStatus = (typeof FUNDRAISER_STATUSES)[number];

export const fundraiserMessages = {
  chooseArtistAndCharity: 'Unable to save project. Please choose an artist and charity first',
  atLeastOneTrack: 'Must include at least one track name',
  tooManyTracks: `A project may have no more than ${max.tracksMax} tracks.`,
  wholeDollars: 'Donation minimum must be a whole dollar amount (no cents)',
  nonprofitRequired: 'Nonprofit is required',
  nonprofitInvalid: 'Nonprofit is not valid',
  minimumDonationHint: 'Must be $2 or more',
  notPublishable: 'This fundraiser is not ready to publish yet. Please add the details and music first.',
  artistMustBePublished: 'The artist of this fundraiser is a draft: publish both, or publish the artist first.',
  finishArtistFirst: 'Please finish creating the artist before publishing this fundraiser.',
  onlyDraftsEditable: 'Only draft fundraisers can be edited. Please contact us to change a published one.',
  onlyAdminsChangeCharity: 'The charity of a published fundraiser can only be changed by an admin.',
  notFound: 'Fundraiser not found.',
  albumZipRequired: 'Album zip is required.',
} as const;

export const trackStatusSchema = z.enum(['processing', 'ready', 'failed']);

/** A track as the fundraiser JSON carries it (DESIGN.md section 4). */
export const fundraiserTrackSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  durationSeconds: z.number().nullable(),
  status: trackStatusSchema,
  /** Public 30-second preview URL, once processed. */
  previewPath: z.string().optional(),
  /** Full-stream URL, only for callers allowed to stream. */
  file: z.string().optional(),
  /** The track's upload id, only for those who may edit the fundraiser (to resubmit the form). */
  uploadId: z.string().optional(),
  /** Why processing failed (status 'failed'), only for those who may manage the fundraiser. */
  error: z.string().optional(),
});
export type FundraiserTrack = z.infer<typeof fundraiserTrackSchema>;

export const fundraiserArtistSchema = z.object({
  id: z.number().int(),
  urlSlug: z.string(),
  name: z.string(),
  status: z.enum(ARTIST_STATUSES),
  isPublishable: z.boolean(),
});

export const fundraiserSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  artistId: z.number().int(),
  name: z.string(),
  description: z.string(),
  supportedOrg: z.string(),
  supportedOrgEin: z.string(),
  supportedOrgWebsite: z.string().optional(),
  /** Cents. */
  minimumDonation: z.number().int(),
  donationGoal: z.number().int().optional(),
  genre: z.string(),
  genreSecondary: z.string().optional(),
  status: z.enum(FUNDRAISER_STATUSES),
  shareCount: z.number().int(),
  /** URL of the 400 px JPEG cover; `albumCover` is the upload id the other sizes derive from. */
  image: z.string().optional(),
  albumCover: z.string().optional(),
  previewTrackName: z.string().optional(),
  /** Upload id of the preview track (for the edit form); only for those who may edit. */
  previewTrackFile: z.string().optional(),
  /** Public URL the detail page's preview player plays. */
  previewTrackPreview: z.string().optional(),
  /** The preview track's processing state and failure message, only for those who may manage it. */
  previewTrackStatus: trackStatusSchema.optional(),
  previewTrackError: z.string().optional(),
  tracksList: z.array(fundraiserTrackSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
  deletedAt: z.string().optional(),
  publishedAt: z.string().optional(),
  urlSlug: z.string().optional(),
  youtubeLink: z.string().optional(),
  vimeoLink: z.string().optional(),
  hasV1Tracks: z.boolean(),
  hasTracksZip: z.boolean(),
  isPublishable: z.boolean(),
  /** Whether the caller may manage it (its owner or an admin): decided by the server, per caller. */
  canManage: z.boolean(),
  totalRaised: z.number().int().optional(),
  /** Number of donations, for the stats on the detail page. */
  donationCount: z.number().int(),
  artist: fundraiserArtistSchema,
  tracksZipLink: z.string().optional(),
  // The names some screens use for the same facts (spec part 2 section 3).
  fundraisingGoalCents: z.number().int().optional(),
  donationMinimumCents: z.number().int(),
  charityEin: z.string(),
});
export type Fundraiser = z.infer<typeof fundraiserSchema>;

export const fundraiserListSchema = z.array(fundraiserSchema);
export const fundraiserSearchResultSchema = z.object({
  results: z.array(fundraiserSchema),
  totalCount: z.number().int(),
  /** Present (true) when more than SEARCH_RESULT_CAP matched: totalCount is the cap, a lower bound. */
  totalCountCapped: z.boolean().optional(),
});

/** What saving and music submission answer: enough to navigate (spec part 2 section 7). */
export const fundraiserRefSchema = z.object({ id: z.number().int(), urlSlug: z.string().optional() });
export type FundraiserRef = z.infer<typeof fundraiserRefSchema>;

// ---------------------------------------------------------------------------------------------
// Fields

const genreField = z.enum(GENRES, { error: messages.genre });
const optionalGenreField = z
  .union([z.literal(''), genreField], { error: messages.genre })
  .optional()
  .transform((value) => value || undefined);

/** Only the video code is entered, not the URL (spec part 2 section 5). */
const videoCodeField = (label: string) => optionalText(label, max.videoCode);

const money = (label: string, min: number, maxCents: number) =>
  z
    .number({ error: messages.required(label) })
    .int(`${label} must be a whole number of cents`)
    .nonnegative(messages.moneyNegative(label))
    .min(min, messages.moneyMin(label, formatWholeDollars(min)))
    .max(maxCents, messages.moneyMax(label, formatWholeDollars(maxCents)));

export const donationMinimumCentsField = money(
  'Donation minimum',
  max.minimumDonationMinCents,
  max.minimumDonationMaxCents,
).refine((cents) => cents % 100 === 0, fundraiserMessages.wholeDollars);

export const fundraisingGoalCentsField = money('Fundraising goal', max.goalMinCents, max.goalMaxCents);

/** A charity EIN: required, at most 100 characters, and 9 digits (dash optional). */
export const charityEinField = z
  .string({ error: fundraiserMessages.nonprofitRequired })
  .trim()
  .min(1, fundraiserMessages.nonprofitRequired)
  .max(limits.charityEin, messages.max('Charity EIN', limits.charityEin))
  .refine((value) => normaliseEin(value) !== null, fundraiserMessages.nonprofitInvalid);

const uploadIdField = (label: string) =>
  z
    .string({ error: messages.required(label) })
    .trim()
    .min(1, messages.required(label))
    .max(limits.uploadId, messages.max(label, limits.uploadId));

/** The details step (spec part 2 section 5). */
export const fundraiserDetailsSchema = z.object({
  name: requiredText('Name', max.name),
  description: requiredText('Description', max.description),
  genre: genreField,
  genreSecondary: optionalGenreField,
  youtubeLink: videoCodeField('YouTube code'),
  vimeoLink: videoCodeField('Vimeo code'),
});
export type FundraiserDetailsInput = z.infer<typeof fundraiserDetailsSchema>;

/** The charity step: goal, minimum and the nonprofit. */
export const fundraiserCharitySchema = z.object({
  charityEin: charityEinField,
  donationMinimumCents: donationMinimumCentsField,
  fundraisingGoalCents: fundraisingGoalCentsField,
});
export type FundraiserCharityInput = z.infer<typeof fundraiserCharitySchema>;

/**
 * POST /api/fundraisers/save: the wizard's draft. Without `id` it creates the draft, with `id` it
 * updates it (DESIGN.md contract details). Artist and charity come first; the details (name,
 * description, genres, video codes) follow once the details step is done, and then all of them
 * are checked together.
 */
export const saveFundraiserSchema = z
  .object({
    id: z.number().int().positive().optional(),
    artistId: z.number().int().positive().optional(),
    charityEin: z.string().trim().max(limits.charityEin, messages.max('Charity EIN', limits.charityEin)).optional(),
    donationMinimumCents: donationMinimumCentsField,
    fundraisingGoalCents: fundraisingGoalCentsField,
    ...fundraiserDetailsSchema.partial().shape,
  })
  .superRefine((value, ctx) => {
    const hasDetails = value.name !== undefined || value.description !== undefined || value.genre !== undefined;
    if (!hasDetails) return;
    if (value.name === undefined) ctx.addIssue({ code: 'custom', path: ['name'], message: messages.required('Name') });
    if (value.description === undefined)
      ctx.addIssue({ code: 'custom', path: ['description'], message: messages.required('Description') });
    if (value.genre === undefined) ctx.addIssue({ code: 'custom', path: ['genre'], message: messages.genre });
  });
export type SaveFundraiserInput = z.infer<typeof saveFundraiserSchema>;

export const trackNameField = requiredText('Track name', max.trackName);

const trackListField = <T extends z.ZodType>(item: T) =>
  z
    .array(item, { error: fundraiserMessages.atLeastOneTrack })
    .min(1, fundraiserMessages.atLeastOneTrack)
    .max(max.tracksMax, fundraiserMessages.tooManyTracks);

const streamingTrack = z.object({
  /** An existing track keeps its id (and its processed audio) when only its name or place changes. */
  id: z.number().int().positive().optional(),
  name: trackNameField,
  file: uploadIdField('Track file'),
});

const musicFields = {
  albumCover: uploadIdField('Album cover'),
  previewTrackName: optionalText('Preview track name', max.trackName),
  previewTrackFile: uploadIdField('Preview track'),
  trackList: trackListField(streamingTrack),
};

/** PATCH /api/fundraisers/music: the wizard's last step. */
export const fundraiserMusicSchema = z.object({ id: z.number().int().positive(), ...musicFields });
export type FundraiserMusicInput = z.infer<typeof fundraiserMusicSchema>;

/** PATCH /api/fundraisers/{id}/update: the streaming edit form. */
export const updateFundraiserSchema = z.object({
  ...fundraiserDetailsSchema.shape,
  ...fundraiserCharitySchema.shape,
  ...musicFields,
});
export type UpdateFundraiserInput = z.infer<typeof updateFundraiserSchema>;

/**
 * PATCH /api/fundraisers/{id}/updatev1: the legacy form, sent as multipart. Text fields arrive as
 * strings; `trackList` is a JSON array of names; the album zip is the file part `albumZip`.
 */
export const updateFundraiserV1Schema = z.object({
  ...fundraiserDetailsSchema.shape,
  charityEin: charityEinField,
  donationMinimumCents: z.coerce
    .number({ error: messages.required('Donation minimum') })
    .pipe(donationMinimumCentsField),
  fundraisingGoalCents: z.coerce
    .number({ error: messages.required('Fundraising goal') })
    .pipe(fundraisingGoalCentsField),
  albumCover: uploadIdField('Album cover'),
  previewTrackName: optionalText('Preview track name', max.trackName),
  previewTrackFile: uploadIdField('Preview track'),
  trackList: z
    .string({ error: fundraiserMessages.atLeastOneTrack })
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: fundraiserMessages.atLeastOneTrack });
        return z.NEVER;
      }
    })
    .pipe(trackListField(trackNameField)),
});
export type UpdateFundraiserV1Input = z.infer<typeof updateFundraiserV1Schema>;

export const publishFundraiserSchema = z.object({
  /** Publish the fundraiser's DRAFT artist too (the dialog's 'Yes, publish both!'). */
  publishArtist: z.boolean().optional().default(false),
});

export const fundraiserSearchParamsSchema = z.object({
  page: pageParam,
  pageSize: pageSizeParam,
  searchTerm: searchTermParam,
  genre: z
    .union([z.literal(''), genreField], { error: messages.genre })
    .optional()
    .transform((value) => value || undefined),
  charityEin: z
    .string()
    .trim()
    .max(limits.charityEin, messages.max('Charity EIN', limits.charityEin))
    .optional()
    .transform((value) => value || undefined),
});
export type FundraiserSearchParams = z.infer<typeof fundraiserSearchParamsSchema>;

/** A donor row of GET /api/fundraisers/{id}/transactions (spec part 2 section 3). */
export const fundraiserTransactionSchema = z.object({
  name: z.string(),
  email: z.string(),
  amountCents: z.number().int(),
  tipCents: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const fundraiserTransactionsSchema = z.object({
  results: z.array(fundraiserTransactionSchema),
  totalCount: z.number().int(),
});

export const transactionsParamsSchema = z.object({ page: pageParam, page_size: pageSizeParam });

// ---------------------------------------------------------------------------------------------
// The forms' own shapes: what the fields hold as typed, turned into the payloads above.

/**
 * The donation minimum as typed: digits, optionally with .0 or .00, times 100; empty is 0 (spec
 * part 2 section 5). Cents typed ("2.50") fail the whole-dollar rule with its own message.
 */
const donationMinimumText = z
  .string()
  .transform((text, ctx) => {
    const cents = parseDollarsToCents(text, 2);
    if (cents === null) {
      ctx.addIssue({ code: 'custom', message: fundraiserMessages.wholeDollars });
      return z.NEVER;
    }
    return cents;
  })
  .pipe(donationMinimumCentsField);

/** The goal as typed: dollars, with cents if wanted; required. */
const fundraisingGoalText = z
  .string()
  .trim()
  .min(1, messages.required('Fundraising goal'))
  .transform((text, ctx) => {
    const cents = parseDollarsToCents(text, 2);
    if (cents === null) {
      ctx.addIssue({ code: 'custom', message: 'Fundraising goal must be an amount in dollars, like 500 or 500.00' });
      return z.NEVER;
    }
    return cents;
  })
  .pipe(fundraisingGoalCentsField);

/** The charity step's fields, named like the payload keys so the server's formErrors land on them. */
export const charityFormShape = {
  fundraisingGoalCents: fundraisingGoalText,
  donationMinimumCents: donationMinimumText,
  charityEin: charityEinField,
  /** What the chosen nonprofit is shown as; the server only needs the EIN. */
  charityName: z.string().optional(),
  charityLocation: z.string().optional(),
};

/**
 * The legacy v1 edit form (spec part 2 section 2): details, charity, cover and preview, track
 * names, and the album zip, required unless the fundraiser has one already. It is sent as
 * updateFundraiserV1Schema's multipart fields.
 */
export function legacyFormSchema(hasTracksZip: boolean) {
  return z.object({
    ...fundraiserDetailsSchema.shape,
    ...charityFormShape,
    albumCover: musicFields.albumCover,
    previewTrackName: musicFields.previewTrackName,
    previewTrackFile: musicFields.previewTrackFile,
    trackList: trackListField(z.object({ name: trackNameField })),
    albumZip: albumZipFileField(hasTracksZip, fundraiserMessages.albumZipRequired),
  });
}
