import type { ApiError } from './errors';
import { notifyLoggedOut } from './http';
import { apiErrorFrom, parseBody } from './read-error';

// Multipart requests with upload progress. fetch cannot report how much of a request body has
// been sent, so uploads (spec part 2 section 7: 'progress reported') go through XMLHttpRequest.
// Like client/api/http.ts this honours `x-logged-out`; callers parse the answer with a schema.

/** The user pressed Cancel: not a failure to report. */
export class UploadCancelled extends Error {
  constructor() {
    super('Upload cancelled');
    this.name = 'UploadCancelled';
  }
}

/** The request failed: `status` is 0 when no answer came (network down, timeout). */
export class UploadRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`Upload failed with status ${status}`);
    this.name = 'UploadRequestError';
  }
}

export type UploadRequest = {
  /** Resolves with the parsed JSON body of a 2xx answer. */
  done: Promise<unknown>;
  abort: () => void;
};

/** Sends `body` and reports the percentage of it sent so far (0 to 100). */
export function sendWithProgress(
  path: string,
  body: FormData,
  onProgress: (percent: number) => void,
  method: 'POST' | 'PATCH' = 'POST',
): UploadRequest {
  const xhr = new XMLHttpRequest();
  const done = new Promise<unknown>((resolve, reject) => {
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)));
    });
    xhr.addEventListener('load', () => {
      if (xhr.getResponseHeader('x-logged-out') === 'true') notifyLoggedOut();
      const answer = parseBody(xhr.responseText);
      if (xhr.status < 200 || xhr.status >= 300) reject(new UploadRequestError(xhr.status, answer));
      else resolve(answer);
    });
    xhr.addEventListener('error', () => reject(new UploadRequestError(0, undefined)));
    xhr.addEventListener('timeout', () => reject(new UploadRequestError(0, undefined)));
    xhr.addEventListener('abort', () => reject(new UploadCancelled()));
  });
  xhr.open(method, path);
  xhr.setRequestHeader('accept', 'application/json');
  xhr.send(body);
  return { done, abort: () => xhr.abort() };
}

/** The failure of a multipart form submission as the ApiError the rest of the client knows. */
export function toApiError(error: UploadRequestError): ApiError {
  return apiErrorFrom(error.status, error.body);
}
