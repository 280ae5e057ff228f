import { type ReactNode, useId } from 'react';
import type { UploadProgress, useFileUpload } from './use-file-upload';
import './upload-frame.css';

// What the image and audio upload fields draw alike: a labelled group around the drop zone, the
// hint, the error (live, since an upload fails long after the user acted) and what is said to
// screen readers when an upload finishes. Each field fills the zone with its own prompt.

type FileUploadState = ReturnType<typeof useFileUpload>;

/** What the frame draws of the upload's state: useFileUpload's values of the same names. */
type UploadFrameProps = Pick<
  FileUploadState,
  'rootRef' | 'zoneProps' | 'inputProps' | 'drag' | 'announcement' | 'uploadError' | 'uploading'
> & {
  /** The field's own class (image-upload, file-upload ...). */
  className: string;
  label: string;
  hint?: string;
  /**
   * The form's error for this field; an upload's own error is shown instead while there is one,
   * and none while a file is on its way (it is not "required" while it is being uploaded).
   */
  error?: string;
  /** The zone's contents, given the ids that describe the field. */
  children: (ids: { labelId: string; hintId: string | undefined; errorId: string | undefined }) => ReactNode;
};

export function UploadFrame({
  rootRef,
  zoneProps,
  inputProps,
  drag,
  announcement,
  uploadError,
  uploading,
  className,
  label,
  hint,
  error,
  children,
}: UploadFrameProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const hintId = hint ? `${id}-hint` : undefined;
  const shownError = uploadError ?? (uploading ? undefined : error);
  const errorId = shownError ? `${id}-error` : undefined;

  return (
    <div
      ref={rootRef}
      className={`field ${className}${shownError ? ' field-invalid' : ''}`}
      role="group"
      aria-labelledby={labelId}
    >
      <span className="field-label" id={labelId}>
        {label}
      </span>
      <div className={`upload-zone${drag === 'none' ? '' : ` upload-zone-${drag}`}`} {...zoneProps}>
        {children({ labelId, hintId, errorId })}
        <input {...inputProps} aria-label={label} />
      </div>
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
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

/** 'Uploading {file}: N%' with its progress bar and Cancel. */
export function UploadProgressRow({
  progress,
  cancelRef,
  cancel,
}: Pick<FileUploadState, 'cancelRef' | 'cancel'> & { progress: UploadProgress }) {
  const progressId = useId();
  return (
    <div className="upload-progress">
      <label htmlFor={progressId} className="upload-progress-name">
        Uploading {progress.fileName}: {progress.percent}%
      </label>
      <progress id={progressId} max={100} value={progress.percent}>
        {progress.percent}%
      </progress>
      <button ref={cancelRef} type="button" className="button button-secondary" onClick={cancel}>
        Cancel
      </button>
    </div>
  );
}
