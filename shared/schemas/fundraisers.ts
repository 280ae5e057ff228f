import { z } from 'zod';
import { fundraiserLimits as max, GENRES, limits } from '../constants';
import { messages } from '../messages';
import { fundraiserMessages } from '../fundraiser-messages';
import { formatWholeDollars, parseDollarsToCents } from '../money';
import { normaliseEin } from '../ein';
import { optionalText, pageParam, pageSizeParam, requiredText, searchTermParam } from './text';
import { albumZipFileField } from './uploads';

// What is sent about fundraisers (spec part 2 sections 3, 5 and 7; DESIGN.md section 4); what the
// API answers is in answers/fundraisers.ts.

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

/** A legacy v1 track list: names only, in album order (the audio is in the album zip). */
export const trackNamesField = trackListField(trackNameField);

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
    .pipe(trackNamesField),
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

export const transactionsParamsSchema = z.object({ page: pageParam, page_size: pageSizeParam });

// ---------------------------------------------------------------------------------------------
// The forms' own shapes: what the fields hold as typed, turned into the payloads above.

/**
 * The donation minimum as typed: digits, optionally with .0 or .00, times 100; empty is 0 (spec
 * part 2 section 5). Cents typed ("2.50", "2,50") fail the whole-dollar rule with its own
 * message; "1,000" is a thousand dollars (parseDollarsToCents, wholeDollars).
 */
const donationMinimumText = z
  .string()
  .transform((text, ctx) => {
    const cents = parseDollarsToCents(text, { wholeDollars: true });
    if (cents === null) {
      ctx.addIssue({ code: 'custom', message: fundraiserMessages.wholeDollars });
      return z.NEVER;
    }
    return cents;
  })
  .pipe(donationMinimumCentsField);

/** The goal as typed: dollars ("1,000" is a thousand), with cents if wanted; required. */
const fundraisingGoalText = z
  .string()
  .trim()
  .min(1, messages.required('Fundraising goal'))
  .transform((text, ctx) => {
    const cents = parseDollarsToCents(text, { wholeDollars: true });
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
