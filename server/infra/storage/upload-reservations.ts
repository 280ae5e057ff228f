import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { uploadReservations as reservations } from '../../db/schema';
import { formatIdentity, ownerIsGone, thisProcess } from '../processes/identity';

// Bytes promised to uploads still streaming, per account and in all (issue 9). The pending-upload
// quota reads the uploads table, which knows a file only once it is saved: without this, several
// uploads sent at once each saw the same empty quota and the same free disk. An upload reserves
// what it may write before its body is read and releases it once its file is recorded or gone.
// Kept in the database, so that several server processes (WEB_CONCURRENCY) see each other's: a
// row names the process receiving the upload, and a process that dies leaves rows that
// releaseAbandoned removes (its uploads died with it).

export type UploadReservation = { bytes: number; release: () => void };

export type UploadReservations = ReturnType<typeof uploadReservations>;

export function uploadReservations(db: Db, owner = formatIdentity(thisProcess())) {
  const sumOf = (where?: ReturnType<typeof eq>) =>
    db
      .select({ bytes: sql<number>`coalesce(sum(${reservations.bytes}), 0)` })
      .from(reservations)
      .where(where)
      .get()!.bytes;
  return {
    /** Bytes this account's uploads in flight may still write, in every process. */
    reservedBy: (userId: number) => sumOf(eq(reservations.userId, userId)),
    /** Bytes every upload in flight may still write: what the free-disk guard keeps back. */
    reservedTotal: () => sumOf(),
    /**
     * Holds `bytes` for `userId` until `release` (called once, extra calls do nothing). The caller
     * checks the room and reserves in one transaction, so no other upload, in this process or
     * another, comes between.
     */
    reserve(userId: number, bytes: number): UploadReservation {
      const { id } = db.insert(reservations).values({ userId, bytes, owner }).returning({ id: reservations.id }).get();
      let released = false;
      return {
        bytes,
        release: () => {
          if (released) return;
          db.delete(reservations).where(eq(reservations.id, id)).run();
          // Only once the row is gone: a release that failed (the database busy) may be tried again.
          released = true;
        },
      };
    },
    /** Removes the reservations of processes that have ended (a crash, a kill): their uploads ended too. */
    releaseAbandoned(): number {
      let removed = 0;
      const owners = db.selectDistinct({ owner: reservations.owner }).from(reservations).all();
      for (const { owner: each } of owners) {
        if (ownerIsGone(each)) removed += db.delete(reservations).where(eq(reservations.owner, each)).run().changes;
      }
      return removed;
    },
  };
}
