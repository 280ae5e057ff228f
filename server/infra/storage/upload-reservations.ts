// Bytes promised to uploads still streaming, per account and in all (issue 9). The pending-upload
// quota reads the uploads table, which knows a file only once it is saved: without this, several
// uploads sent at once each saw the same empty quota and the same free disk. An upload reserves
// what it may write before its body is read and releases it once its file is recorded or gone.
// In memory: an upload in flight lives in this process and ends with it.

export type UploadReservation = { bytes: number; release: () => void };

export type UploadReservations = ReturnType<typeof uploadReservations>;

export function uploadReservations() {
  const byUser = new Map<number, number>();
  let total = 0;
  return {
    /** Bytes this account's uploads in flight may still write. */
    reservedBy: (userId: number) => byUser.get(userId) ?? 0,
    /** Bytes every upload in flight may still write: what the free-disk guard keeps back. */
    reservedTotal: () => total,
    /**
     * Holds `bytes` for `userId` until `release` (called once, extra calls do nothing). The caller
     * checks the room and reserves in the same synchronous step, so no other upload comes between.
     */
    reserve(userId: number, bytes: number): UploadReservation {
      byUser.set(userId, (byUser.get(userId) ?? 0) + bytes);
      total += bytes;
      let released = false;
      return {
        bytes,
        release: () => {
          if (released) return;
          released = true;
          total -= bytes;
          const left = (byUser.get(userId) ?? 0) - bytes;
          if (left > 0) byUser.set(userId, left);
          else byUser.delete(userId);
        },
      };
    },
  };
}
