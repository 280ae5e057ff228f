import { UPLOAD_LIMITS_MB } from '../../shared/constants';
import { UploadFrame, UploadProgressRow } from './upload-frame';
import { uploadMessages } from '../../shared/schemas/uploads';
import { type UploadKind, useFileUpload } from './use-file-upload';
import { NetworkButton } from './needs-network';
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
  wrongType: uploadMessages.wrongType.track,
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
  const { progress, drag, chooseRef, chooseFile, cancelRef, cancel, ...frame } = useFileUpload({
    kind: trackUploadKind,
    onUploaded,
    onUploadingChange,
    buttonRef,
  });

  return (
    <UploadFrame
      {...frame}
      drag={drag}
      className={`file-upload${compact ? ' file-upload-compact' : ''}`}
      label={label}
      hint={hint}
      error={error}
    >
      {({ labelId, hintId, errorId }) =>
        progress ? (
          <UploadProgressRow progress={progress} cancelRef={cancelRef} cancel={cancel} />
        ) : (
          <>
            {drag === 'invalid' ? (
              <p className="upload-drag-error">{uploadMessages.invalidDrag}</p>
            ) : drag === 'valid' ? (
              <p>Drop the file to upload it</p>
            ) : currentFile ? (
              <p className="file-upload-done">
                <span aria-hidden="true">✓ </span>
                {currentFile}
              </p>
            ) : (
              <p>{compact ? 'Drop a WAV or MP3 file here, or' : 'Drag and drop a WAV or MP3 file here, or'}</p>
            )}
            <NetworkButton
              action="upload files"
              ref={chooseRef}
              type="button"
              className="button button-secondary"
              // The label too: in a track row the button is one of many alike.
              aria-describedby={[labelId, hintId, errorId].filter(Boolean).join(' ')}
              onClick={chooseFile}
            >
              {currentFile ? 'Replace file' : 'Choose a file'}
            </NetworkButton>
          </>
        )
      }
    </UploadFrame>
  );
}
