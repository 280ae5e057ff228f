import { useId } from 'react';
import { UPLOAD_LIMITS_MB } from '../../shared/constants';
import { UploadedPicture } from './uploaded-picture';
import {
  invalidDragMessage,
  tooLargeMessage,
  type UploadKind,
  uploadFailedMessage,
  useFileUpload,
} from './use-file-upload';
import './image-upload.css';

// The image upload field (spec part 1 sections 4 and 5, issue 3): file picker or drag and drop,
// checks before sending, progress in percent, cancel. The behaviour lives in useFileUpload.

export const uploadMessages = {
  failed: uploadFailedMessage,
  tooLarge: tooLargeMessage(UPLOAD_LIMITS_MB.image),
  wrongType: 'File type must be one of the following: jpeg, jpg, png',
  invalidDrag: invalidDragMessage,
} as const;

const imageKind: UploadKind = {
  endpoint: '/api/uploads/image',
  field: 'imageFile',
  types: ['image/jpeg', 'image/png'],
  namePattern: /\.(jpe?g|png)$/i,
  maxMb: UPLOAD_LIMITS_MB.image,
  wrongType: uploadMessages.wrongType,
  doneAnnouncement: 'Image uploaded',
};

type ImageUploadProps = {
  label: string;
  hint?: string;
  /** The form's error for this field (required, or the server's). */
  error?: string;
  /** The upload id shown as the current image, if any. */
  imageId?: string;
  /** Alt text of the preview. */
  previewAlt: string;
  onUploaded: (id: string) => void;
  onUploadingChange?: (uploading: boolean) => void;
  /** Receives the 'Choose an image' button, so a form can focus this field when it is invalid. */
  buttonRef?: (element: HTMLButtonElement | null) => void;
};

export function ImageUpload({
  label,
  hint,
  error,
  imageId,
  previewAlt,
  onUploaded,
  onUploadingChange,
  buttonRef,
}: ImageUploadProps) {
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
  } = useFileUpload({ kind: imageKind, onUploaded: (uploadId) => onUploaded(uploadId), onUploadingChange, buttonRef });
  const shownError = uploadError ?? error;
  const errorId = shownError ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;

  return (
    <div
      ref={rootRef}
      className={`field image-upload${shownError ? ' field-invalid' : ''}`}
      role="group"
      aria-labelledby={labelId}
    >
      <span className="field-label" id={labelId}>
        {label}
      </span>
      <div className={`image-upload-zone${drag === 'none' ? '' : ` image-upload-zone-${drag}`}`} {...zoneProps}>
        <UploadedPicture
          className="image-upload-preview"
          uploadId={imageId}
          alt={imageId ? previewAlt : ''}
          sizes="96px"
          eager
        />
        <div className="image-upload-body">
          {progress ? (
            <div className="image-upload-progress">
              <label htmlFor={progressId} className="image-upload-file">
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
                <p className="image-upload-drag-error">{invalidDragMessage}</p>
              ) : (
                <p>{drag === 'valid' ? 'Drop the image to upload it' : 'Drag and drop a JPEG or PNG image here, or'}</p>
              )}
              <button
                ref={chooseRef}
                type="button"
                className="button button-secondary"
                aria-describedby={describedBy}
                onClick={chooseFile}
              >
                {imageId ? 'Choose another image' : 'Choose an image'}
              </button>
            </>
          )}
          <input {...inputProps} aria-label={label} />
        </div>
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
