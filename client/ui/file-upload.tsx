import { useId } from 'react';
import { UPLOAD_LIMITS_MB } from '../../shared/constants';
import { invalidDragMessage, type UploadKind, useFileUpload } from './use-file-upload';
import './file-upload.css';

// An audio file field for the fundraiser forms (spec part 2 sections 4 and 5): a .wav or .mp3
// sent to POST /api/uploads/track, with the same picker, drop zone, progress and cancel as the
// image field.

export const trackUploadKind: UploadKind = {
  endpoint: '/api/uploads/track',
  field: 'trackFile',
  types: ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave', 'audio/mpeg', 'audio/mp3'],
  namePattern: /\.(wav|mp3)$/i,
  maxMb: UPLOAD_LIMITS_MB.track,
  wrongType: 'File type must be one of the following: wav, mp3, mpeg',
  doneAnnouncement: 'File uploaded',
};

type FileUploadProps = {
  label: string;
  hint?: string;
  /** The form's error for this field (required, or the server's). */
  error?: string;
  /** What is uploaded now, in words (a file name, or 'Current file'); empty when nothing is. */
  currentFile?: string;
  onUploaded: (id: string, file: File) => void;
  onUploadingChange?: (uploading: boolean) => void;
  /** Receives the picker button, so a form can focus this field when it is invalid. */
  buttonRef?: (element: HTMLButtonElement | null) => void;
  /** A smaller frame, for a row of the track list. */
  compact?: boolean;
};

export function FileUpload({
  label,
  hint,
  error,
  currentFile,
  onUploaded,
  onUploadingChange,
  buttonRef,
  compact = false,
}: FileUploadProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const hintId = hint ? `${id}-hint` : undefined;
  const progressId = `${id}-progress`;
  const {
    rootRef,
    cancelRef,
    chooseRef,
    progress,
    uploadError,
    drag,
    announcement,
    cancel,
    chooseFile,
    inputProps,
    zoneProps,
  } = useFileUpload({ kind: trackUploadKind, onUploaded, onUploadingChange, buttonRef });
  const shownError = uploadError ?? error;
  const errorId = shownError ? `${id}-error` : undefined;
  const describedBy = [labelId, hintId, errorId].filter(Boolean).join(' ') || undefined;
  const classes = ['field', 'file-upload', compact && 'file-upload-compact', shownError && 'field-invalid'];

  return (
    <div ref={rootRef} className={classes.filter(Boolean).join(' ')} role="group" aria-labelledby={labelId}>
      <span className="field-label" id={labelId}>
        {label}
      </span>
      <div className={`file-upload-zone${drag === 'none' ? '' : ` file-upload-zone-${drag}`}`} {...zoneProps}>
        {progress ? (
          <div className="file-upload-progress">
            <label htmlFor={progressId} className="file-upload-name">
              Uploading {progress.fileName}: {progress.percent}%
            </label>
            <progress id={progressId} max={100} value={progress.percent}>
              {progress.percent}%
            </progress>
            <button ref={cancelRef} type="button" className="button button-secondary" onClick={cancel}>
              Cancel
            </button>
          </div>
        ) : (
          <>
            {drag === 'invalid' ? (
              <p className="file-upload-drag-error">{invalidDragMessage}</p>
            ) : drag === 'valid' ? (
              <p>Drop the file to upload it</p>
            ) : currentFile ? (
              <p className="file-upload-name file-upload-done">
                <span aria-hidden="true">✓ </span>
                {currentFile}
              </p>
            ) : (
              <p>{compact ? 'Drop a WAV or MP3 file here, or' : 'Drag and drop a WAV or MP3 file here, or'}</p>
            )}
            <button
              ref={chooseRef}
              type="button"
              className="button button-secondary"
              aria-describedby={describedBy}
              onClick={chooseFile}
            >
              {currentFile ? 'Replace file' : 'Choose a file'}
            </button>
          </>
        )}
        <input {...inputProps} aria-label={label} />
      </div>
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      {/* Live, since an upload fails long after the user acted. */}
      <div aria-live="polite">
        {shownError && (
          <p className="field-error" id={errorId}>
            {shownError}
          </p>
        )}
      </div>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
    </div>
  );
}
