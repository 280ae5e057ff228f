import fs from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { renderImage } from '../features/uploads/images';
import { slugify } from '../infra/slugs';
import { type MediaStore, newUploadId } from '../infra/storage/media';
import type { Db } from '../db/client';
import { artists, settings, uploads, users } from '../db/schema';

// Demo artists for a laptop run, each with a generated portrait put through the real image
// pipeline. Seeded once per database.

const DEMO_ARTISTS = [
  {
    name: 'The Lantern Collective',
    description:
      'A seven-piece indie folk collective from Portland, Oregon. Banjo, cello, three-part harmonies and songs about rivers, night trains and the people who wait up for you.',
    website: 'https://example.org/lantern-collective',
    links: { website0: 'Bandcamp', url0: 'https://example.org/lantern-collective/bandcamp' },
    colors: ['#4c2a85', '#ff7a59'],
  },
  {
    name: 'Mira Okafor',
    description:
      'Singer-songwriter. Piano ballads written on night shifts at a children’s hospital, recorded in one take in a church hall.',
    website: '',
    colors: ['#1f6f78', '#f2c14e'],
  },
  {
    name: 'Night Shift Jazz Trio',
    description: 'Upright bass, brushes and a Rhodes piano. Late-night standards and a few originals for insomniacs.',
    website: 'https://example.org/night-shift-trio',
    links: {
      website0: 'Live at the Blue Room',
      url0: 'https://example.org/night-shift-trio/live',
      website1: 'Instagram',
      url1: 'https://example.org/night-shift-trio/instagram',
    },
    colors: ['#1d1530', '#8e7cc3'],
  },
  {
    name: 'Coastline Choir',
    description:
      'A community choir of forty voices from the Oregon coast. Sea shanties, gospel and new arrangements of old hymns.',
    website: '',
    colors: ['#0b4f6c', '#01baef'],
  },
] as const;

const SEEDED = 'demo-artists-seeded';

function portrait(name: string, [from, to]: readonly [string, string]) {
  const initials = name
    .split(/\s+/)
    .filter((word) => /^[A-Z]/.test(word) && word !== 'The')
    .slice(0, 2)
    .map((word) => word[0])
    .join('');
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1200">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
<rect width="1200" height="1200" fill="url(#g)"/>
<circle cx="960" cy="240" r="180" fill="#ffffff" fill-opacity="0.12"/><circle cx="200" cy="1020" r="260" fill="#000000" fill-opacity="0.1"/>
<text x="600" y="690" font-family="DejaVu Sans, Arial, sans-serif" font-size="360" font-weight="700" fill="#ffffff" text-anchor="middle">${initials}</text>
</svg>`);
}

export async function seedDemoArtists(db: Db, media: MediaStore, ownerEmail: string) {
  if (db.select().from(settings).where(eq(settings.key, SEEDED)).get()) return;
  const owner = db.select().from(users).where(eq(users.email, ownerEmail)).get();
  if (!owner) return;
  // A week ago, a minute apart, before the demo fundraisers that name them (demo-fundraisers.ts):
  // demo content is never dated in the future, where it would sort above what people add later.
  const joinedAt = Date.now() - 7 * 24 * 3_600_000;
  for (const [index, demo] of DEMO_ARTISTS.entries()) {
    const id = newUploadId();
    const source = media.tempFile();
    // The image pipeline reads the SVG itself (librsvg), as it reads an uploaded PNG.
    await fs.writeFile(source, portrait(demo.name, demo.colors));
    await renderImage(source, id, media);
    await fs.rm(source, { force: true });
    db.transaction((tx) => {
      tx.insert(uploads).values({ id, userId: owner.id, kind: 'image', originalName: 'portrait.png', bytes: 0 }).run();
      tx.insert(artists)
        .values({
          userId: owner.id,
          name: demo.name,
          description: demo.description,
          website: demo.website,
          ...('links' in demo ? demo.links : {}),
          profileImageId: id,
          status: 'PUBLISHED',
          publishedAt: new Date(joinedAt - index * 60_000),
          createdAt: new Date(joinedAt - index * 60_000),
          updatedAt: new Date(joinedAt - index * 60_000),
          urlSlug: slugify(demo.name),
        })
        .onConflictDoNothing()
        .run();
    });
  }
  db.insert(settings).values({ key: SEEDED, value: new Date().toISOString() }).run();
}
