import fs from 'node:fs/promises';
import { serverMessages } from '../../../shared/api';
import { UPLOAD_LIMITS_MB } from '../../../shared/constants';
import { uploadMessages } from '../../../shared/schemas/uploads';
import { type UpdateFundraiserV1Input } from '../../../shared/schemas/fundraisers';
import { fundraiserMessages as say } from '../../../shared/fundraiser-messages';
import type { Deps, Session } from '../../deps';
import { FormError, invalid, notFound, rateLimited } from '../../errors';
import { takeAttempt, type ThrottleRule } from '../../infra/security/throttle';
import { isZip } from '../../infra/storage/file-types';
import { newUploadId } from '../../infra/storage/media';
import type { ReceivedFile } from '../../infra/storage/multipart';
import { insertUpload } from '../../infra/storage/upload-records';
import { checkAlbumZip } from '../../infra/storage/zip-check';
import { type UploadLimit, withRoomForUpload } from '../uploads/service';
import { editable, editorOf } from './permissions';
import { toRef } from './presenter';
import { checkCharityChange, checkMusicUploads, chosenCharity, detailValues, slugFor, writeMusic } from './service';

// The legacy v1 form (PATCH /api/fundraisers/{id}/updatev1; spec part 2 sections 2 and 7): track
// names only, and the music is one album zip, checked before it is kept (issue 5).

/** An album zip is up to 1000 MB of disk: a few tries an hour is plenty for fixing a legacy album. */
const albumZipsByUser: ThrottleRule = { bucket: 'album-zip-user', limit: 20, windowMs: 60 * 60 * 1000 };

const MB = 1024 * 1024;

const streamsItsTracks = 'This fundraiser streams its tracks. Please use the streaming form.';

/**
 * Before updatev1 reads its (up to 1000 MB) body: the caller must be allowed to edit this legacy
 * fundraiser, not be sending album after album, and have room for it. Runs `use` (which reads and
 * saves the form) with the cap to read with, the room held for it until `use` is done.
 */
export async function withLegacyEditRoom<T>(
  deps: Deps,
  session: Session,
  id: number,
  declaredBytes: number | undefined,
  use: (limit: UploadLimit) => Promise<T>,
): Promise<T> {
  const row = editable(deps, session, id);
  if (!row.hasV1Tracks) throw invalid(streamsItsTracks);
  if (takeAttempt(deps.db, albumZipsByUser, String(session.user.id)) === null) {
    throw rateLimited(serverMessages.rateLimited);
  }
  return withRoomForUpload(
    deps,
    session,
    UPLOAD_LIMITS_MB.zip * MB,
    uploadMessages.tooLarge(UPLOAD_LIMITS_MB.zip),
    declaredBytes,
    use,
  );
}

/**
 * The album zip the form sent, checked (issue 5: infra/storage/zip-check.ts), or undefined when
 * the form's file input was left empty: browsers still send an empty part for it, which is no
 * file rather than a bad one.
 */
async function checkedAlbumZip(file: ReceivedFile | undefined): Promise<ReceivedFile | undefined> {
  if (!file || (file.bytes === 0 && !file.originalName)) return undefined;
  if (!isZip(file.head)) throw new FormError([{ field: 'albumZip', message: uploadMessages.wrongType.zip }]);
  const check = await checkAlbumZip(file.tempFile);
  if (!check.ok) throw new FormError([{ field: 'albumZip', message: check.message }]);
  return file;
}

/**
 * PATCH /api/fundraisers/{id}/updatev1, once its body is on disk. The music is one zip, required
 * unless the fundraiser has one already. The caller removes `file.tempFile` afterwards (a kept
 * zip has been moved away from it by then).
 */
export async function updateFundraiserV1(
  deps: Deps,
  session: Session,
  id: number,
  input: UpdateFundraiserV1Input,
  file: ReceivedFile | undefined,
) {
  const row = editable(deps, session, id);
  if (!row.hasV1Tracks) throw invalid(streamsItsTracks);
  const zip = await checkedAlbumZip(file);
  if (!zip && !row.tracksZipUploadId) throw new FormError([{ field: 'albumZip', message: say.albumZipRequired }]);
  const charity = chosenCharity(deps, input.charityEin);
  checkCharityChange(session, row, charity.charityEin);
  const music = {
    albumCover: input.albumCover,
    previewTrackName: input.previewTrackName,
    previewTrackFile: input.previewTrackFile,
    trackList: [],
  };
  // Before the zip is kept (no gigabyte moved for a save that fails), and again as it is saved:
  // the move is a wait in which cleanup may run.
  checkMusicUploads(deps.db, session, row, music);

  let zipUploadId = row.tracksZipUploadId;
  if (zip) {
    zipUploadId = newUploadId();
    const stored = deps.media.zipFile(zipUploadId);
    await fs.rename(zip.tempFile, stored);
    await deps.media.store(stored).catch(async (error: unknown) => {
      await deps.media.discard(stored);
      throw error;
    });
    insertUpload(deps.db, {
      id: zipUploadId,
      userId: session.user.id,
      kind: 'zip',
      format: 'zip',
      originalName: zip.originalName,
      bytes: zip.bytes,
      crc32: zip.crc32,
    });
  }
  const ref = deps.db.transaction((tx) => {
    checkMusicUploads(tx, session, row, music);
    const updated = writeMusic(
      tx,
      row.id,
      editorOf(session),
      {
        ...detailValues(input),
        ...charity,
        albumCoverId: input.albumCover,
        previewTrackName: input.previewTrackName,
        previewTrackUploadId: input.previewTrackFile,
        tracksZipUploadId: zipUploadId,
        urlSlug: slugFor(tx, row, input.name),
      },
      input.trackList.map((name) => ({ name, uploadId: null, status: 'ready' as const })),
    );
    if (!updated) throw notFound(say.notFound);
    deps.streamGrants.clear();
    return toRef(updated);
  });
  return ref;
}
