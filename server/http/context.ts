import type { Deps, Session } from '../deps';
import type { AnswerHeaders } from './answer-headers';

/** Hono's variables for every request: the services' dependencies and who is asking. */
export type AppEnv = {
  Variables: {
    deps: Deps;
    session: Session | null;
    requestId: string;
    /** The client's address, an IPv6 one as its /64 network: what per-address limits count, once one asks (request-context.ts clientIpOf). */
    clientIp: string | undefined;
    /** What the middleware add to the answer (answer-headers.ts). */
    answerHeaders: AnswerHeaders;
    /** A page's nonce for its inline styles, set by the page's handler (security-headers.ts). */
    styleNonce: string | undefined;
    /** Set by a page any site may show in a frame: the embedded player, /embed/* (security-headers.ts). */
    framable: boolean | undefined;
  };
};
