import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { settings } from '../../db/schema';
import type { MediaObjects } from './objects';
import type { S3Objects } from './s3-objects';

// One bucket, one site. A site removes the objects its database does not refer to (crash
// leftovers at start, unused uploads every hour), so a site started on another site's bucket, or a
// fresh database pointed at a bucket by mistake, would remove every file there. The first start on
// a bucket (or media-migrate) leaves this site's id in it (`soundcause-site.json`, kept in the
// database's settings too, so a restored backup is the same site); a start whose id differs is
// refused before anything is written or removed. `npm run cli -- take-over-bucket` hands the
// bucket to this database on purpose (a database restored from before the bucket was claimed).

export const CLAIM_KEY = 'soundcause-site.json';
const SITE_ID = 'media_site_id';

export class BucketClaimedError extends Error {}

/** This database's site id, made on first use. */
function siteId(db: Db): string {
  const found = db.select().from(settings).where(eq(settings.key, SITE_ID)).get();
  if (found) return found.value;
  db.insert(settings)
    .values({ key: SITE_ID, value: randomBytes(12).toString('base64url') })
    .onConflictDoNothing()
    .run();
  return db.select().from(settings).where(eq(settings.key, SITE_ID)).get()!.value;
}

const claimOf = (id: string) => JSON.stringify({ siteId: id, claimedAt: new Date().toISOString() });

const isBucket = (objects: MediaObjects | S3Objects): objects is S3Objects => 'putIfAbsent' in objects;

async function claimedBy(objects: S3Objects): Promise<string | undefined> {
  const body = await objects.read(CLAIM_KEY);
  if (!body) return undefined;
  let text = '';
  for await (const chunk of body as AsyncIterable<Buffer>) text += chunk.toString('utf8');
  try {
    return (JSON.parse(text) as { siteId?: string }).siteId ?? '(none)';
  } catch {
    return '(unreadable)';
  }
}

/** Claims the media bucket for this site's database, or throws when another site's claim is there. */
export async function claimMediaBucket(db: Db, objects: MediaObjects | S3Objects): Promise<void> {
  if (!isBucket(objects)) return;
  const ours = siteId(db);
  let theirs = await claimedBy(objects);
  if (theirs === undefined) {
    // Written only if still absent (If-None-Match, where the store knows it), then read back: of
    // two sites starting on a new bucket at once, one claims it.
    await objects.putIfAbsent(CLAIM_KEY, claimOf(ours));
    theirs = await claimedBy(objects);
  }
  if (theirs === ours) return;
  throw new BucketClaimedError(
    `The bucket ${objects.bucket} holds another site's media (${CLAIM_KEY} names site ${theirs}; this database is site ${ours}). ` +
      'Starting would remove every file this database does not know. Use a bucket of its own; or, if this database is ' +
      "that site's, restored from before the bucket was claimed: npm run cli -- take-over-bucket",
  );
}

/** Hands the bucket to this database on purpose: its claim is replaced. */
export async function takeOverBucket(db: Db, objects: S3Objects): Promise<{ previous?: string; now: string }> {
  const previous = await claimedBy(objects);
  const now = siteId(db);
  await objects.putText(CLAIM_KEY, claimOf(now));
  return { previous, now };
}
