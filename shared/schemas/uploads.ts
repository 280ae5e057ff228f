import { z } from 'zod';
import { UPLOAD_LIMITS_MB } from '../constants';

// Uploads (spec part 1 sections 4 and 5, part 2 section 5): the messages the upload fields show,
// the same whether the browser or the server finds the problem, and the answer of an upload.

const MB = 1024 * 1024;

export const uploadMessages = {
  failed: 'Unable to upload file! Something went wrong.',
  invalidDrag: 'Invalid filetype',
  tooLarge: (maxMb: number) => `File must be less than ${maxMb} MB`,
  wrongType: {
    image: 'File type must be one of the following: jpeg, jpg, png',
    track: 'File type must be one of the following: wav, mp3, mpeg',
    zip: 'File type must be one of the following: zip',
  },
  /** Ours (issue 9): an account's uploads waiting to be saved into something, and a full disk. */
  quota: (pendingMb: number) =>
    `You have ${pendingMb} MB of uploaded files that are not saved into an artist or fundraiser yet. ` +
    'Save your changes, or wait an hour for unused files to be cleared, before uploading more.',
  quotaUnverified: 'Please verify your email address to upload more than 200 MB.',
  lowDisk: 'The server is running low on storage space, so uploads are paused. Please try again later.',
} as const;

/**
 * The legacy form's album zip as the browser holds it: a File, or null when none is chosen, which
 * is fine only if the fundraiser has a zip already (spec part 2 section 5).
 */
export function albumZipFileField(hasTracksZip: boolean, requiredMessage: string) {
  return z
    .custom<File | null>((value) => value === null || (typeof File !== 'undefined' && value instanceof File))
    .superRefine((file, ctx) => {
      if (!file) {
        if (!hasTracksZip) ctx.addIssue({ code: 'custom', message: requiredMessage });
      } else if (!/\.zip$/i.test(file.name)) {
        ctx.addIssue({ code: 'custom', message: uploadMessages.wrongType.zip });
      } else if (file.size > UPLOAD_LIMITS_MB.zip * MB) {
        ctx.addIssue({ code: 'custom', message: uploadMessages.tooLarge(UPLOAD_LIMITS_MB.zip) });
      }
    });
}
