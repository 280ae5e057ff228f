import { asc } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { mailingListSubscribers } from '../../db/schema';

/** Stores the address once; signing up twice is not an error. */
export function upsertSubscriber(db: Db, email: string): void {
  db.insert(mailingListSubscribers).values({ email }).onConflictDoNothing().run();
}

export function listSubscribers(db: Db) {
  return db.select().from(mailingListSubscribers).orderBy(asc(mailingListSubscribers.createdAt)).all();
}
