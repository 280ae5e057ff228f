import { type ChangeEvent, type DragEvent, useEffect, useRef, useState } from 'react';
import { messages } from '../../shared/messages';
import { uploadMessages } from '../../shared/schemas/uploads';
import { uploadResultSchema } from '../../shared/answers/uploads';
import { sendWithProgress, toApiError, UploadCancelled, UploadRequestError } from '../api/xhr-upload';
import { offlineReason } from './needs-network';

// What every upload field shares (spec part 1 sections 4 and 5, part 2 section 4 'Uploads'): a
// file picker or drag and drop, checks before sending, progress in percent, cancel, and the
// spec's messages. ImageUpload and FileUpload draw it; this hook holds the behaviour.

const MB = 1024 * 1024;

/** What one kind of upload accepts and where it goes. */
export type UploadKind = {
  endpoint: string;
  /** The multipart field name the server reads. */
  field: string;
  /** MIME types accepted. */
  types: readonly string[];
  /** Some systems give no MIME type for a file; its name decides then, and the server checks the bytes. */
  namePattern: RegExp;
  maxMb: number;
  /** 'File type must be one of the following: ...' */
  wrongType: string;
  /** Said to screen readers when an upload finishes. */
  doneAnnouncement: string;
};

function isAcceptedType(kind: UploadKind, type: string, name: string): boolean {
  return kind.types.includes(type) || (type === '' && kind.namePattern.test(name));
}

function checkFile(kind: UploadKind, file: File): string | null {
  if (!isAcceptedType(kind, file.type, file.name)) return kind.wrongType;
  if (file.size > kind.maxMb * MB) return uploadMessages.tooLarge(kind.maxMb);
  return null;
}

/** While dragging only the MIME types are known (some browsers hide even those: the drop decides then). */
function dragVerdict(kind: UploadKind, dataTransfer: DataTransfer): 'valid' | 'invalid' {
  const items = Array.from(dataTransfer.items);
  const [item] = items;
  if (items.length !== 1 || !item || item.kind !== 'file') return 'invalid';
  return item.type === '' || kind.types.includes(item.type) ? 'valid' : 'invalid';
}

/**
 * The server's words for the refusals the spec names (file type, size) and for the two that tell
 * the user what to do (the account's upload quota, a full disk: 413 and 503); every other failure
 * is 'Unable to upload file! Something went wrong.' (spec part 1 section 4).
 */
function failureMessage(kind: UploadKind, failure: UploadRequestError): string {
  const error = toApiError(failure);
  if (failure.status === 400 && /^File (type )?must be/.test(error.message)) return error.message;
  if (failure.status === 413) return error.code ? error.message : uploadMessages.tooLarge(kind.maxMb);
  if (failure.status === 503 && error.code) return error.message;
  return uploadMessages.failed;
}

/** A file dropped beside a drop zone would make the browser open it and leave the form. */
function useKeepDroppedFiles() {
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
}

export type UploadProgress = { fileName: string; percent: number };

type UseFileUploadOptions = {
  kind: UploadKind;
  onUploaded: (id: string, file: File) => void;
  onUploadingChange?: (uploading: boolean) => void;
  /** Also receives the picker button, so a form can focus the field when it is invalid. */
  buttonRef?: (element: HTMLButtonElement | null) => void;
};

export function useFileUpload({ kind, onUploaded, onUploadingChange, buttonRef }: UseFileUploadOptions) {
  /** The field's outer element: focus inside it follows the buttons that swap during an upload. */
  const rootRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const chooseRef = useRef<HTMLButtonElement | null>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const abortRef = useRef<(() => void) | null>(null);
  const followFocusRef = useRef(false);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [drag, setDrag] = useState<'none' | 'valid' | 'invalid'>('none');
  const [announcement, setAnnouncement] = useState('');
  const uploading = progress !== null;
  // An upload outlives the render that started it (a track row may move meanwhile): it reports to
  // the callbacks of the latest render.
  const callbacksRef = useRef({ onUploaded, onUploadingChange });
  useEffect(() => {
    callbacksRef.current = { onUploaded, onUploadingChange };
  });

  // Leaving the page (or removing the row) stops an upload still in flight.
  useEffect(() => () => abortRef.current?.(), []);

  useEffect(() => {
    if (!followFocusRef.current) return;
    if (uploading) cancelRef.current?.focus();
    else chooseRef.current?.focus();
  }, [uploading]);

  useKeepDroppedFiles();

  async function upload(file: File) {
    // A file dropped with no connection (the picker button is disabled then): say why nothing happens.
    const problem = navigator.onLine ? checkFile(kind, file) : offlineReason('upload files');
    if (problem) {
      setUploadError(problem);
      return;
    }
    followFocusRef.current = Boolean(rootRef.current?.contains(document.activeElement));
    setUploadError(null);
    setProgress({ fileName: file.name, percent: 0 });
    setAnnouncement('Upload started');
    callbacksRef.current.onUploadingChange?.(true);
    const body = new FormData();
    body.append(kind.field, file);
    const request = sendWithProgress(kind.endpoint, body, (percent) => setProgress({ fileName: file.name, percent }));
    abortRef.current = request.abort;
    try {
      const parsed = uploadResultSchema.safeParse(await request.done);
      if (!parsed.success) {
        setAnnouncement('');
        setUploadError(messages.unexpectedData);
        return;
      }
      callbacksRef.current.onUploaded(parsed.data.id, file);
      setAnnouncement(kind.doneAnnouncement);
    } catch (failure) {
      if (failure instanceof UploadCancelled) {
        setAnnouncement('Upload cancelled');
      } else {
        setAnnouncement('');
        setUploadError(failure instanceof UploadRequestError ? failureMessage(kind, failure) : uploadMessages.failed);
      }
    } finally {
      // Cancel disappears with the upload: if it had focus, focus goes back to the picker button.
      if (document.activeElement === cancelRef.current) followFocusRef.current = true;
      abortRef.current = null;
      setProgress(null);
      callbacksRef.current.onUploadingChange?.(false);
      // Cleared so that choosing the same file again still counts as a change.
      if (inputRef.current) inputRef.current.value = '';
    }
  }

  function handleChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    if (file) void upload(file);
  }

  function handleDragOver(event: DragEvent<HTMLElement>) {
    event.preventDefault();
    if (uploading) {
      event.dataTransfer.dropEffect = 'none';
      return;
    }
    event.dataTransfer.dropEffect = 'copy';
    setDrag(dragVerdict(kind, event.dataTransfer));
  }

  function handleDragLeave(event: DragEvent<HTMLElement>) {
    const next = event.relatedTarget;
    if (next instanceof Node && event.currentTarget.contains(next)) return;
    setDrag('none');
  }

  function handleDrop(event: DragEvent<HTMLElement>) {
    event.preventDefault();
    setDrag('none');
    if (uploading) return;
    const files = event.dataTransfer.files;
    const file = files[0];
    if (files.length !== 1 || !file || !isAcceptedType(kind, file.type, file.name)) {
      setUploadError(uploadMessages.invalidDrag);
      return;
    }
    void upload(file);
  }

  return {
    rootRef,
    cancelRef,
    chooseRef: (element: HTMLButtonElement | null) => {
      chooseRef.current = element;
      buttonRef?.(element);
    },
    progress,
    uploading,
    uploadError,
    drag,
    announcement,
    cancel: () => abortRef.current?.(),
    chooseFile: () => inputRef.current?.click(),
    inputProps: {
      ref: inputRef,
      type: 'file',
      accept: kind.types.join(','),
      hidden: true,
      onChange: handleChange,
    },
    zoneProps: {
      onDragEnter: (event: DragEvent<HTMLElement>) => {
        // A new attempt: the zone itself tells whether this one fits.
        if (!uploading) setUploadError(null);
        handleDragOver(event);
      },
      onDragOver: handleDragOver,
      onDragLeave: handleDragLeave,
      onDrop: handleDrop,
    },
  };
}
