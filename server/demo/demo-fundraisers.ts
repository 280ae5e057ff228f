import fs from 'node:fs/promises';
import { and, eq, isNull } from 'drizzle-orm';
import { renderImage } from '../features/uploads/images';
import { slugify } from '../infra/slugs';
import { type MediaStore, newUploadId } from '../infra/storage/media';
import { queuePreviewProcessing, queueTrackProcessing } from '../features/fundraisers/track-processing';
import { recordDemoPayout } from '../features/disbursements/service';
import { recordPaidDonation } from '../features/donations/service';
import type { Db } from '../db/client';
import {
  artists,
  charities,
  featuredFundraisers,
  fundraisers,
  fundraiserTracks,
  settings,
  uploads,
  users,
} from '../db/schema';

// Demo fundraisers for a laptop run (DESIGN.md section 2): covers and real, playable audio are
// generated here, so a fresh `npm start` shows the whole product. Seeded once per database, after
// the demo artists. One of them has the id of the 'Greatest Hits' promo.

type DemoFundraiser = {
  /** Gets the id of the 'Greatest Hits' promo (PROMO_PROJECT_ID). */
  promo?: boolean;
  artist: string;
  name: string;
  description: string;
  charityEin: string;
  genre: string;
  genreSecondary?: string;
  minimumDonationCents: number;
  goalCents: number;
  colors: [string, string];
  tracks: string[];
  raisedCents: number[];
};

const DEMO_FUNDRAISERS: DemoFundraiser[] = [
  {
    promo: true,
    artist: 'The Lantern Collective',
    name: 'Greatest Hits',
    description:
      'Ten years of night trains, river songs and three-part harmonies, remastered from the original tapes.\n\nEvery dollar goes to the American Red Cross for disaster relief along the Columbia River.',
    charityEin: '530196605',
    genre: 'Folk',
    genreSecondary: 'Singer-Songwriter',
    minimumDonationCents: 1000,
    goalCents: 500_000,
    colors: ['#ff7a59', '#4c2a85'],
    tracks: ['Night Train to Astoria', 'Riverlight', 'The People Who Wait Up', 'Cello in the Kitchen'],
    raisedCents: [25_000, 10_000, 50_000, 15_000, 120_000],
  },
  {
    artist: 'Mira Okafor',
    name: 'Songs from the Night Shift',
    description:
      'Piano ballads written between rounds on a children’s ward and recorded in one take in a church hall. For St. Jude, where some of them were written.',
    charityEin: '620646012',
    genre: 'Singer-Songwriter',
    genreSecondary: 'Pop',
    minimumDonationCents: 500,
    goalCents: 200_000,
    colors: ['#f2c14e', '#1f6f78'],
    tracks: ['Four A.M. Rounds', 'Paper Stars', 'Quiet Corridor'],
    raisedCents: [5_000, 20_000, 7_000, 40_000],
  },
  {
    artist: 'Night Shift Jazz Trio',
    name: 'Standards for Insomniacs',
    description: 'Upright bass, brushes and a Rhodes piano. Six standards and two originals, all for UNICEF USA.',
    charityEin: '131760110',
    genre: 'Jazz',
    minimumDonationCents: 800,
    goalCents: 150_000,
    colors: ['#8e7cc3', '#1d1530'],
    tracks: ['Blue in the Small Hours', 'Brushwork', 'Rhodes at Midnight'],
    raisedCents: [800, 1600],
  },
  {
    artist: 'Coastline Choir',
    name: 'Shanties and Hymns',
    description:
      'Forty voices from the Oregon coast: sea shanties, gospel and new arrangements of old hymns, recorded in a lighthouse keeper’s chapel.',
    charityEin: '131788491',
    genre: 'Christian/Gospel',
    genreSecondary: 'Folk',
    minimumDonationCents: 300,
    goalCents: 100_000,
    colors: ['#01baef', '#0b4f6c'],
    tracks: ['Haul Away the Tide', 'Chapel Light', 'Leave Her, Johnny'],
    raisedCents: [300, 300, 1000, 2000, 500, 900],
  },
];

const SEEDED = 'demo-fundraisers-seeded';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The demo's story, all of it in the past (a date in the future would sort demo rows above the
 * real ones that come later): fundraiser `index` was published `index + 2` days ago (the promo
 * most recently, so browse lists it first), its donations came in two hours apart after that, and
 * the payout to the first charity came an hour ago, after every donation it pays.
 */
const demoTimeline = (seededAt: number) => ({
  publishedAt: (index: number) => new Date(seededAt - (index + 2) * DAY),
  donatedAt: (publishedAt: Date, n: number) => new Date(publishedAt.getTime() + (n + 1) * 2 * HOUR),
  paidOutAt: new Date(seededAt - HOUR),
});

function coverSvg(title: string, artist: string, [from, to]: [string, string]) {
  const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
  // Long titles get a smaller size so they fit the 1200 px cover with a margin.
  const titleSize = Math.min(84, Math.floor(1900 / title.length));
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1200">
<defs><linearGradient id="g" x1="0" y1="1" x2="1" y2="0"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
<rect width="1200" height="1200" fill="url(#g)"/>
<g fill="none" stroke="#ffffff" stroke-opacity="0.22" stroke-width="6">
<circle cx="600" cy="520" r="120"/><circle cx="600" cy="520" r="220"/><circle cx="600" cy="520" r="320"/></g>
<circle cx="600" cy="520" r="36" fill="#ffffff" fill-opacity="0.85"/>
<text x="600" y="980" font-family="DejaVu Sans, Arial, sans-serif" font-size="${titleSize}" font-weight="700" fill="#ffffff" text-anchor="middle">${escape(title)}</text>
<text x="600" y="1070" font-family="DejaVu Sans, Arial, sans-serif" font-size="52" fill="#ffffff" fill-opacity="0.85" text-anchor="middle">${escape(artist)}</text>
</svg>`);
}

/**
 * A short melody as 16-bit mono PCM WAV: notes of a pentatonic scale chosen by a small seeded
 * generator, each with a soft attack and decay and a little of its octave, so it sounds like music
 * rather than a test tone.
 */
export function melodyWav(seed: number, seconds: number): Buffer {
  const sampleRate = 22_050;
  const scale = [261.63, 293.66, 329.63, 392.0, 440.0, 523.25, 587.33, 659.25];
  let state = seed * 7919 + 17;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const noteSeconds = 0.4;
  const samples = Math.round(seconds * sampleRate);
  const data = Buffer.alloc(samples * 2);
  let frequency = scale[0]!;
  for (let i = 0; i < samples; i++) {
    const t = i / sampleRate;
    const inNote = t % noteSeconds;
    if (inNote < 1 / sampleRate) frequency = scale[Math.floor(random() * scale.length)]!;
    const envelope = Math.min(1, inNote / 0.02) * Math.exp(-inNote * 5);
    const fade = Math.min(1, (seconds - t) / 0.5);
    const value =
      (Math.sin(2 * Math.PI * frequency * t) + 0.3 * Math.sin(4 * Math.PI * frequency * t)) * envelope * fade;
    data.writeInt16LE(Math.round(value * 9000), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

export async function seedDemoFundraisers(db: Db, media: MediaStore, ownerEmail: string, promoProjectId: number) {
  if (db.select().from(settings).where(eq(settings.key, SEEDED)).get()) return;
  const owner = db.select().from(users).where(eq(users.email, ownerEmail)).get();
  if (!owner) return;
  const featured: number[] = [];
  const paidCharities: string[] = [];
  let seed = 1;
  const timeline = demoTimeline(Date.now());
  for (const [index, demo] of DEMO_FUNDRAISERS.entries()) {
    const artist = db
      .select()
      .from(artists)
      .where(and(eq(artists.urlSlug, slugify(demo.artist)), isNull(artists.deletedAt)))
      .get();
    const charity = db.select().from(charities).where(eq(charities.ein, demo.charityEin)).get();
    if (!artist || !charity) continue;

    const coverId = newUploadId();
    const source = media.tempFile();
    // The image pipeline reads the SVG itself (librsvg), as it reads an uploaded PNG.
    await fs.writeFile(source, coverSvg(demo.name, demo.artist, demo.colors));
    await renderImage(source, coverId, media);
    await fs.rm(source, { force: true });
    const audio: { id: string; bytes: number }[] = [];
    for (let i = 0; i <= demo.tracks.length; i++) {
      const id = newUploadId();
      const bytes = melodyWav(seed++, i === 0 ? 15 : 24);
      const stored = media.trackFile(id, 'wav');
      await fs.writeFile(stored, bytes);
      await media.store(stored);
      audio.push({ id, bytes: bytes.length });
    }
    const [preview, ...tracks] = audio;

    const id = db.transaction((tx) => {
      tx.insert(uploads)
        .values([
          { id: coverId, userId: owner.id, kind: 'image', format: 'png', originalName: 'cover.png', bytes: 0 },
          ...audio.map((file, i) => ({
            id: file.id,
            userId: owner.id,
            kind: 'track' as const,
            format: 'wav' as const,
            originalName: `${i === 0 ? 'preview' : demo.tracks[i - 1]}.wav`,
            bytes: file.bytes,
          })),
        ])
        .run();
      const publishedAt = timeline.publishedAt(index);
      const row = tx
        .insert(fundraisers)
        .values({
          ...(demo.promo ? { id: promoProjectId } : {}),
          userId: artist.userId,
          artistId: artist.id,
          name: demo.name,
          description: demo.description,
          charityEin: charity.ein,
          charityName: charity.name,
          charityWebsite: charity.websiteUrl,
          minimumDonationCents: demo.minimumDonationCents,
          donationGoalCents: demo.goalCents,
          genre: demo.genre,
          genreSecondary: demo.genreSecondary ?? null,
          status: 'PUBLISHED',
          albumCoverId: coverId,
          previewTrackName: demo.tracks[0]!,
          previewTrackUploadId: preview!.id,
          urlSlug: slugify(demo.name),
          publishedAt,
          createdAt: publishedAt,
          updatedAt: publishedAt,
        })
        .onConflictDoNothing()
        .returning({ id: fundraisers.id })
        .get();
      if (!row) return null;
      const trackRows = tx
        .insert(fundraiserTracks)
        .values(
          tracks.map((file, position) => ({
            fundraiserId: row.id,
            position,
            name: demo.tracks[position]!,
            uploadId: file.id,
          })),
        )
        .returning({ id: fundraiserTracks.id })
        .all();
      // The track pipeline renders them in the background once the server runs (issue 5).
      queueTrackProcessing(
        tx,
        trackRows.map((track) => track.id),
      );
      queuePreviewProcessing(tx, row.id, preview!.id);
      demo.raisedCents.forEach((donationCents, n) =>
        recordPaidDonation(
          tx,
          {
            fundraiserId: row.id,
            email: `fan${n + 1}@example.org`,
            name: ['Avery Fan', 'Jordan Lee', 'Sam Rivera', 'Kai Morgan', 'Robin Patel', 'Alex Chen'][n % 6]!,
            donationCents,
            tipCents: Math.round(donationCents * 0.1),
          },
          timeline.donatedAt(publishedAt, n),
        ),
      );
      return row.id;
    });
    if (id !== null) {
      featured.push(id);
      paidCharities.push(demo.charityEin);
    }
  }
  db.transaction((tx) => {
    if (featured.length && tx.select().from(featuredFundraisers).all().length === 0) {
      tx.insert(featuredFundraisers)
        .values(featured.map((fundraiserId, position) => ({ fundraiserId, position })))
        .run();
    }
    // The public ledger shows money reaching a charity from the start: half of the first one's paid out.
    const firstCharity = paidCharities[0];
    if (firstCharity) recordDemoPayout(tx, firstCharity, timeline.paidOutAt);
    tx.insert(settings).values({ key: SEEDED, value: new Date().toISOString() }).run();
  });
}
