import { and, eq, isNotNull, lt, notInArray } from 'drizzle-orm';
import type { Db } from '../../db/client';

// The uploads table: shared by every feature that takes files (artists, fundraisers).
import { artists, uploads } from '../../db/schema';

export function insertUpload(db: Db, values: typeof uploads.$inferInsert) {
  db.insert(uploads).values(values).run();
}

export function findOwnUpload(db: Db, id: string, userId: number, kind: 'image' | 'track' | 'zip') {
  return db
    .select()
    .from(uploads)
    .where(and(eq(uploads.id, id), eq(uploads.userId, userId), eq(uploads.kind, kind)))
    .get();
}

/** Uploads older than `before` that nothing refers to. */
export function findUnusedUploads(db: Db, before: Date) {
  const referenced = db.select({ id: artists.profileImageId }).from(artists).where(isNotNull(artists.profileImageId));
  return db
    .select()
    .from(uploads)
    .where(and(lt(uploads.createdAt, before), notInArray(uploads.id, referenced)))
    .all();
}

export function deleteUpload(db: Db, id: string) {
  db.delete(uploads).where(eq(uploads.id, id)).run();
}
