import { type ChangeEvent, type DragEvent, useEffect, useId, useRef, useState } from 'react';
import { z } from 'zod';
import { apiErrorSchema } from '../../shared/api';
import { UPLOAD_LIMITS_MB } from '../../shared/constants';
import { messages } from '../../shared/messages';
import { notifyLoggedOut } from '../api/http';
import { UploadedPicture } from './uploaded-picture';
import './image-upload.css';

// The image upload field (spec part 1 sections 4 and 5, issue 3): file picker or drag and drop,
// checks before sending, progress in percent, cancel.

const MB = 1024 * 1024;
const ACCEPTED_TYPES = ['image/jpeg', 'image/png'];
const ACCEPTED_NAME = /\.(jpe?g|png)$/i;

export const uploadMessages = {
  failed: 'Unable to upload file! Something went wrong.',
  tooLarge: `File must be less than ${UPLOAD_LIMITS_MB.image} MB`,
  wrongType: 'File type must be one of the following: jpeg, jpg, png',
  invalidDrag: 'Invalid filetype',
} as const;

const uploadResultSchema = z.object({ id: z.string() });

class UploadCancelled extends Error {}

class UploadFailed extends Error {}

/** Some systems give no MIME type for a file; its name decides then, and the server checks the bytes. */
function isAcceptedType(type: string, name: string): boolean {
  return ACCEPTED_TYPES.includes(type) || (type === '' && ACCEPTED_NAME.test(name));
}

function checkFile(file: File): string | null {
  if (!isAcceptedType(file.type, file.name)) return uploadMessages.wrongType;
  if (file.size > UPLOAD_LIMITS_MB.image * MB) return uploadMessages.tooLarge;
  return null;
}

/** While dragging only the MIME types are known (some browsers hide even those: the drop decides then). */
function dragVerdict(dataTransfer: DataTransfer): 'valid' | 'invalid' {
  const items = Array.from(dataTransfer.items);
  const [item] = items;
  if (items.length !== 1 || !item || item.kind !== 'file') return 'invalid';
  return item.type === '' || ACCEPTED_TYPES.includes(item.type) ? 'valid' : 'invalid';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The server's words only for the two refusals the spec names (file type, size); every other
 * failure is 'Unable to upload file! Something went wrong.' (spec part 1 section 4).
 */
function failureMessage(status: number, body: unknown): string {
  const error = apiErrorSchema.safeParse(body);
  if (status === 400 && error.success && error.data.message.startsWith('File type must be')) return error.data.message;
  if (status === 413) return error.success ? error.data.message : uploadMessages.tooLarge;
  return uploadMessages.failed;
}

/**
 * POST /api/uploads/image with XMLHttpRequest, the browser API that reports upload progress.
 * Like client/api/http.ts it honours `x-logged-out` and parses the answer with a schema.
 */
function sendImage(file: File, onProgress: (percent: number) => void, onLoggedOut: () => void) {
  const xhr = new XMLHttpRequest();
  const done = new Promise<string>((resolve, reject) => {
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)));
    });
    xhr.addEventListener('load', () => {
      if (xhr.getResponseHeader('x-logged-out') === 'true') onLoggedOut();
      const body = parseJson(xhr.responseText);
      if (xhr.status < 200 || xhr.status >= 300) return reject(new UploadFailed(failureMessage(xhr.status, body)));
      const parsed = uploadResultSchema.safeParse(body);
      if (parsed.success) resolve(parsed.data.id);
      else reject(new UploadFailed(messages.unexpectedData));
    });
    xhr.addEventListener('error', () => reject(new UploadFailed(uploadMessages.failed)));
    xhr.addEventListener('timeout', () => reject(new UploadFailed(uploadMessages.failed)));
    xhr.addEventListener('abort', () => reject(new UploadCancelled()));
  });
  const body = new FormData();
  body.append('imageFile', file);
  xhr.open('POST', '/api/uploads/image');
  xhr.setRequestHeader('accept', 'application/json');
  xhr.send(body);
  return { done, abort: () => xhr.abort() };
}

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

type Progress = { fileName: string; percent: number };

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
  const inputRef = useRef<HTMLInputElement>(null);
  const chooseRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const abortRef = useRef<(() => void) | null>(null);
  /** Whether focus was on this field when an upload started: it then follows the buttons that swap. */
  const followFocusRef = useRef(false);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [drag, setDrag] = useState<'none' | 'valid' | 'invalid'>('none');
  const [announcement, setAnnouncement] = useState('');
  const uploading = progress !== null;
  const shownError = uploadError ?? error;
  const errorId = shownError ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;

  // Leaving the page stops an upload still in flight.
  useEffect(() => () => abortRef.current?.(), []);

  useEffect(() => {
    if (!followFocusRef.current) return;
    if (uploading) cancelRef.current?.focus();
    else chooseRef.current?.focus();
  }, [uploading]);

  // A file dropped beside the drop zone would make the browser open it and leave the form.
  useEffect(() => {
    const keepFiles = (event: globalThis.DragEvent) => {
      if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
    };
    window.addEventListener('dragover', keepFiles);
    window.addEventListener('drop', keepFiles);
    return () => {
      window.removeEventListener('dragover', keepFiles);
      window.removeEventListener('drop', keepFiles);
    };
  }, []);

  async function upload(file: File) {
    const problem = checkFile(file);
    if (problem) {
      setUploadError(problem);
      return;
    }
    const root = chooseRef.current?.closest('.image-upload');
    followFocusRef.current = Boolean(root?.contains(document.activeElement));
    setUploadError(null);
    setProgress({ fileName: file.name, percent: 0 });
    setAnnouncement('Upload started');
    onUploadingChange?.(true);
    const request = sendImage(file, (percent) => setProgress({ fileName: file.name, percent }), notifyLoggedOut);
    abortRef.current = request.abort;
    try {
      onUploaded(await request.done);
      setAnnouncement('Image uploaded');
    } catch (failure) {
      if (failure instanceof UploadCancelled) {
        setAnnouncement('Upload cancelled');
      } else {
        setAnnouncement('');
        setUploadError(failure instanceof UploadFailed ? failure.message : uploadMessages.failed);
      }
    } finally {
      // Cancel disappears with the upload: if it had focus, focus goes back to the picker button.
      if (document.activeElement === cancelRef.current) followFocusRef.current = true;
      abortRef.current = null;
      setProgress(null);
      onUploadingChange?.(false);
      // Cleared so that choosing the same file again still counts as a change.
      if (inputRef.current) inputRef.current.value = '';
    }
  }

  function handleChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    if (file) void upload(file);
  }

  function handleDragOver(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    if (uploading) {
      event.dataTransfer.dropEffect = 'none';
      return;
    }
    const verdict = dragVerdict(event.dataTransfer);
    event.dataTransfer.dropEffect = 'copy';
    setDrag(verdict);
  }

  function handleDragLeave(event: DragEvent<HTMLDivElement>) {
    const next = event.relatedTarget;
    if (next instanceof Node && event.currentTarget.contains(next)) return;
    setDrag('none');
  }

  function handleDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDrag('none');
    if (uploading) return;
    const files = event.dataTransfer.files;
    const file = files[0];
    if (files.length !== 1 || !file || !isAcceptedType(file.type, file.name)) {
      setUploadError(uploadMessages.invalidDrag);
      return;
    }
    void upload(file);
  }

  return (
    <div className={`field image-upload${shownError ? ' field-invalid' : ''}`} role="group" aria-labelledby={labelId}>
      <span className="field-label" id={labelId}>
        {label}
      </span>
      <div
        className={`image-upload-zone${drag === 'none' ? '' : ` image-upload-zone-${drag}`}`}
        onDragEnter={(event) => {
          // A new attempt: the zone itself tells whether this one fits.
          if (!uploading) setUploadError(null);
          handleDragOver(event);
        }}
        onDragOver={handleDragOver}
        onDragLeave={handleDragLeave}
        onDrop={handleDrop}
      >
        <UploadedPicture
          className="image-upload-preview"
          uploadId={imageId}
          alt={imageId ? previewAlt : ''}
          sizes="96px"
          eager
        />
        <div className="image-upload-body">
          {uploading ? (
            <div className="image-upload-progress">
              <label htmlFor={progressId} className="image-upload-file">
                Uploading {progress.fileName}: {progress.percent}%
              </label>
              <progress id={progressId} max={100} value={progress.percent}>
                {progress.percent}%
              </progress>
              <button
                ref={cancelRef}
                type="button"
                className="button button-secondary"
                onClick={() => abortRef.current?.()}
              >
                Cancel
              </button>
            </div>
          ) : (
            <>
              {drag === 'invalid' ? (
                <p className="image-upload-drag-error">{uploadMessages.invalidDrag}</p>
              ) : (
                <p>{drag === 'valid' ? 'Drop the image to upload it' : 'Drag and drop a JPEG or PNG image here, or'}</p>
              )}
              <button
                ref={(element) => {
                  chooseRef.current = element;
                  buttonRef?.(element);
                }}
                type="button"
                className="button button-secondary"
                aria-describedby={describedBy}
                onClick={() => inputRef.current?.click()}
              >
                {imageId ? 'Choose another image' : 'Choose an image'}
              </button>
            </>
          )}
          <input
            ref={inputRef}
            type="file"
            accept={ACCEPTED_TYPES.join(',')}
            aria-label={label}
            hidden
            onChange={handleChange}
          />
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
