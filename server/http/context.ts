import type { Config } from '../config';
import type { EveryOrgClient } from '../infra/charity-directory/every-org';
import type { Db } from '../db/client';
import type { Mailer } from '../infra/email/mailer';
import type { Logger } from '../infra/logger';
import type { MediaStore } from '../infra/storage/media';
import type { SessionUser } from '../infra/security/session-store';

/** Everything a service needs from the outside world, built once at start-up. */
export type Deps = {
  config: Config;
  db: Db;
  mailer: Mailer;
  logger: Logger;
  media: MediaStore;
  /** The charity directory's remote source; null without EVERY_ORG_API_KEY. */
  everyOrg: EveryOrgClient | null;
};

export type Session = { idHash: string; user: SessionUser };

export type AppEnv = {
  Variables: {
    deps: Deps;
    session: Session | null;
    requestId: string;
    clientIp: string;
  };
};
