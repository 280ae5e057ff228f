import type { FundraiserRef } from '../../../shared/answers/fundraisers';
import type { Db } from '../../db/client';
import { toRef } from './presenter';
import * as queries from './queries';
import { type chosenCharity, slugFor } from './service';
import { queuePreviewProcessing } from './track-processing';

// What the legacy catalogue import (server/catalogue/import-legacy.ts) asks of fundraisers: was
// this catalogue row imported already, and the legacy v1 fundraiser itself, made as the legacy
// form (legacy-form.ts) keeps one: track names only, the album one checked zip, so the legacy
// form, updatev1, 'Upgrade to streaming' and the download-only album page treat it alike.

/** The fundraiser an old catalogue's row `externalId` became, deleted or not. */
export function importedFundraiser(db: Db, externalId: string): FundraiserRef | undefined {
  const row = queries.findFundraiserByLegacyExternalId(db, externalId);
  return row && toRef(row);
}

export type ImportedLegacyFundraiser = {
  externalId: string;
  userId: number;
  artistId: number;
  details: {
    name: string;
    description: string;
    genre: string;
    genreSecondary: string | null;
    youtubeLink: string;
    vimeoLink: string;
  };
  charity: ReturnType<typeof chosenCharity>;
  minimumDonationCents: number;
  donationGoalCents: number;
  albumCoverId: string;
  previewTrackName: string;
  previewTrackUploadId: string;
  tracksZipUploadId: string;
  trackNames: string[];
  /** Published at this moment (the catalogue's date, or the import's), or null for a draft. */
  publishedAt: Date | null;
  createdAt: Date;
};

/**
 * Writes the imported fundraiser, its track names and the preview track's processing job, in the
 * caller's transaction. A unique `legacy_external_id` refuses a second copy of the same row.
 */
export function insertImportedLegacyFundraiser(db: Db, values: ImportedLegacyFundraiser): FundraiserRef {
  const row = queries.insertFundraiser(db, {
    userId: values.userId,
    artistId: values.artistId,
    ...values.details,
    ...values.charity,
    minimumDonationCents: values.minimumDonationCents,
    donationGoalCents: values.donationGoalCents,
    status: values.publishedAt ? 'PUBLISHED' : 'DRAFT',
    publishedAt: values.publishedAt,
    albumCoverId: values.albumCoverId,
    previewTrackName: values.previewTrackName,
    previewTrackUploadId: values.previewTrackUploadId,
    hasV1Tracks: true,
    tracksZipUploadId: values.tracksZipUploadId,
    urlSlug: slugFor(db, null, values.details.name),
    legacyExternalId: values.externalId,
    createdAt: values.createdAt,
    updatedAt: values.createdAt,
  });
  queries.replaceTracks(
    db,
    row.id,
    values.trackNames.map((name) => ({ name, uploadId: null, status: 'ready' as const })),
  );
  // The preview track is processed like any other (the running server's job runner renders it).
  queuePreviewProcessing(db, row.id, values.previewTrackUploadId);
  return toRef(row);
}
