import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { settings } from '../../db/schema';
import type { MediaObjects } from './objects';

// One bucket, one site. A site removes the objects its database does not refer to (crash
// leftovers at start, unused uploads every hour), so a site started on another site's bucket, or a
// fresh database pointed at a bucket by mistake, would remove every file there. The first start on
// a bucket leaves this site's id in it (`soundcause-site.json`, kept in the database's settings
// too, so a restored backup is the same site); a start whose id differs is refused, before
// anything is removed.

const CLAIM_KEY = 'soundcause-site.json';
const SITE_ID = 'media_site_id';

export class BucketClaimedError extends Error {}

function siteId(db: Db): string {
  const found = db.select().from(settings).where(eq(settings.key, SITE_ID)).get();
  if (found) return found.value;
  db.insert(settings)
    .values({ key: SITE_ID, value: randomBytes(12).toString('base64url') })
    .onConflictDoNothing()
    .run();
  return db.select().from(settings).where(eq(settings.key, SITE_ID)).get()!.value;
}

/** Claims the media bucket for this site's database, or throws when another site's claim is there. */
export async function claimMediaBucket(
  db: Db,
  objects: MediaObjects & { upload?: (key: string, from: Readable) => Promise<void> },
) {
  if (objects.kind === 'local' || !objects.upload) return;
  const ours = siteId(db);
  const body = await objects.read(CLAIM_KEY);
  if (!body) {
    const claim = JSON.stringify({ siteId: ours, claimedAt: new Date().toISOString() });
    await objects.upload(CLAIM_KEY, Readable.from([Buffer.from(claim)]));
    return;
  }
  let text = '';
  for await (const chunk of body as AsyncIterable<Buffer>) text += chunk.toString('utf8');
  const theirs = (JSON.parse(text) as { siteId?: string }).siteId;
  if (theirs !== ours) {
    throw new BucketClaimedError(
      `The media bucket holds another site's media (${CLAIM_KEY} names site ${theirs}; this database is site ${ours}). ` +
        'Starting would remove every file that database does not know. Use a bucket of its own, or restore this site’s own database.',
    );
  }
}
