import type { ErrorCode } from '../../shared/api';
import type { FormErrorItem } from '../../shared/answers/api';
import { messages } from '../../shared/messages';

// What a failed call throws, known to every page (so kept free of any parser: issue 13).

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: ErrorCode,
    readonly formErrors?: FormErrorItem[],
    /** A plain string body (some 400s answer text). */
    readonly text?: string,
    /** The whole JSON answer, for codes that carry more (INCORRECT_DISBURSEMENT_AMOUNT's outstandingAmountCents). */
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export class UnexpectedDataError extends Error {
  constructor() {
    super(messages.unexpectedData);
    this.name = 'UnexpectedDataError';
  }
}

/**
 * The request never reached the server: no connection (a phone in a tunnel, a browser offline, a
 * network that carries nothing), as opposed to an answer refusing it. Pages say what still works
 * offline instead of the spec's failure messages, which are about the server (issue 22).
 */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('The server could not be reached. Check your connection.', { cause });
    this.name = 'NetworkError';
  }
}
