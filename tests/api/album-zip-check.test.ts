import zlib from 'node:zlib';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { fundraiserSchema } from '../../shared/answers/fundraisers';
import { fundraisers } from '../../server/db/schema';
import { albumZipMessages } from '../../server/infra/storage/zip-check';
import { wav } from '../fixtures/audio';
import { createFundraiser, details } from '../fixtures/fundraisers';
import { type CraftedEntry, craftedZip, deflatedZeros } from '../fixtures/zips';
import { fieldErrors, type TestClient, verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// Issue 5: a legacy album zip sent to PATCH /api/fundraisers/{id}/updatev1 is checked before it
// is stored: readable and consistent (end record, directory and local headers agree, no hidden
// entries), at most 500 entries and 2 GB really unzipped, no password, only names safe on every
// system, at least one song.

const server = useTestServer();

let counter = 0;

/** A verified owner and their legacy (v1) fundraiser; updatev1 allows 20 album zips an hour per user. */
async function legacyOwner() {
  const owner = await verifiedUser(server, `zip-owner-${++counter}@example.org`);
  const fundraiser = await createFundraiser(owner);
  server.db.update(fundraisers).set({ hasV1Tracks: true }).where(eq(fundraisers.id, fundraiser.id)).run();
  return { owner, fundraiser };
}

type Legacy = ReturnType<typeof fundraiserSchema.parse>;

async function sendZip(owner: TestClient, fundraiser: Legacy, zip: Buffer) {
  const form = new FormData();
  for (const [name, value] of Object.entries({
    ...details,
    charityEin: fundraiser.charityEin,
    donationMinimumCents: '500',
    fundraisingGoalCents: '100000',
    albumCover: fundraiser.albumCover ?? '',
    previewTrackName: 'Preview',
    previewTrackFile: fundraiser.previewTrackFile ?? '',
    trackList: JSON.stringify(['First song', 'Second song']),
  }))
    form.append(name, value);
  form.append('albumZip', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), 'album.zip');
  return owner.patch(`/api/fundraisers/${fundraiser.id}/updatev1`, { multipart: form });
}

/** A zip built the ordinary way, with yazl (which itself refuses unsafe names). */
function yazlZip(entries: { name: string; data?: Buffer }[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const { name, data } of entries) {
    if (name.endsWith('/')) zip.addEmptyDirectory(name);
    else zip.addBuffer(data ?? Buffer.from('x'), name);
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

const song = (name: string): CraftedEntry => ({ name, data: wav() });

async function expectRefused(owner: TestClient, fundraiser: Legacy, zip: Buffer, message: string) {
  const response = await sendZip(owner, fundraiser, zip);
  expect(response.status, response.text).toBe(400);
  expect(fieldErrors(response.json)).toEqual({ albumZip: message });
}

describe('PATCH /api/fundraisers/{id}/updatev1 album zip check', () => {
  it('stores a good zip, which the owner then downloads byte for byte', async () => {
    const { owner, fundraiser } = await legacyOwner();
    // Songs in a folder, in upper case and as AIFF, beside the clutter Finder adds and a cover.
    const zip = await yazlZip([
      { name: 'Old Album/' },
      { name: 'Old Album/01 First song.WAV', data: wav({ frequency: 330 }) },
      { name: 'Old Album/02 Second song.aiff', data: wav({ frequency: 440 }) },
      { name: 'Old Album/cover.jpg' },
      { name: '__MACOSX/Old Album/._01 First song.WAV' },
    ]);
    const saved = await sendZip(owner, fundraiser, zip);
    expect(saved.status, saved.text).toBe(200);
    const after = fundraiserSchema.parse((await owner.get(`/api/fundraisers/${fundraiser.id}`)).json);
    expect(after).toMatchObject({ hasV1Tracks: true, hasTracksZip: true });

    const download = await fetch(`${server.baseUrl}/api/fundraisers/${fundraiser.id}/download`, {
      headers: { cookie: owner.cookieHeader() },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/zip');
    expect(Buffer.from(await download.arrayBuffer()).equals(zip)).toBe(true);
  });

  it('refuses zips it cannot read, and keeps the zip already on file', async () => {
    const { owner, fundraiser } = await legacyOwner();
    const good = await yazlZip([{ name: 'song.mp3' }]);
    expect((await sendZip(owner, fundraiser, good)).status).toBe(200);

    // The zip signature followed by nothing a zip holds.
    const junk = Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.alloc(3000, 7)]);
    await expectRefused(owner, fundraiser, junk, albumZipMessages.unreadable);
    // An upload cut short: the directory at the end is missing.
    const whole = craftedZip([song('01.wav'), song('02.wav')]);
    await expectRefused(owner, fundraiser, whole.subarray(0, whole.length - 30), albumZipMessages.unreadable);
    // A directory whose entry points past the end of the file.
    const pointsOutside = craftedZip([song('01.wav')]);
    pointsOutside.writeUInt32LE(0x7fffffff, pointsOutside.length - 22 - 46 - '01.wav'.length + 42);
    await expectRefused(owner, fundraiser, pointsOutside, albumZipMessages.unreadable);
    // The name a streaming extractor reads (the local header) is not the one checked.
    const twoNames = craftedZip([{ ...song('01 Song.wav'), localName: '../../Song.wav' }]);
    await expectRefused(owner, fundraiser, twoNames, albumZipMessages.unreadable);

    const download = await fetch(`${server.baseUrl}/api/fundraisers/${fundraiser.id}/download`, {
      headers: { cookie: owner.cookieHeader() },
    });
    expect(Buffer.from(await download.arrayBuffer()).equals(good)).toBe(true);
  });

  it('refuses more than 500 entries, and more than 2 GB once unzipped', async () => {
    const { owner, fundraiser } = await legacyOwner();
    const many = Array.from({ length: 501 }, (_, index) => ({ name: `take-${index}.mp3` }));
    await expectRefused(owner, fundraiser, await yazlZip(many), 'The zip holds more than 500 files.');
    expect((await sendZip(owner, fundraiser, await yazlZip(many.slice(0, 500)))).status).toBe(200);

    // A zip bomb that admits it: a few bytes that claim to inflate to 2 GB and a byte. Refused
    // from the directory, before anything is inflated.
    const half = 1024 * 1024 * 1024;
    const bomb = craftedZip([
      { ...song('01.wav'), method: 8, uncompressedSize: half },
      { ...song('02.wav'), method: 8, uncompressedSize: half + 1 },
    ]);
    await expectRefused(owner, fundraiser, bomb, 'The songs in the zip add up to more than 2 GB once unzipped.');
    // 2 GB exactly, for real (2 MB deflated): every byte is inflated and counted, and it fits.
    const zeros = deflatedZeros(half);
    const gigabyte = { data: zeros.data, crc: zeros.crc, method: 8, uncompressedSize: half };
    const justUnder = craftedZip([
      { ...gigabyte, name: '01.wav' },
      { ...gigabyte, name: '02.wav' },
    ]);
    expect((await sendZip(owner, fundraiser, justUnder)).status).toBe(200);
  }, 120_000);

  it('refuses password-protected zips', async () => {
    const { owner, fundraiser } = await legacyOwner();
    const message = 'The zip is password-protected. Please upload a zip without a password.';
    // Traditional PKWARE encryption (flag bit 0) on the second entry only: its data starts with
    // a 12-byte encryption header.
    const encrypted = { ...song('02.wav'), flags: 1, uncompressedSize: wav().length - 12 };
    await expectRefused(owner, fundraiser, craftedZip([song('01.wav'), encrypted]), message);
    // Strong encryption (bit 6 with bit 0).
    await expectRefused(owner, fundraiser, craftedZip([{ ...song('01.wav'), flags: 0x41 }]), message);
  });

  it('refuses every name that could land outside the folder it is unzipped into', async () => {
    const { owner, fundraiser } = await legacyOwner();
    const refusedNames: [string, string][] = [
      ['../x.wav', '../x.wav'],
      ['Album/../../x.wav', 'Album/../../x.wav'],
      ['..', '..'],
      ['/etc/x.wav', '/etc/x.wav'],
      ['//server/share/x.wav', '//server/share/x.wav'],
      ['C:/Users/x.wav', 'C:/Users/x.wav'],
      ['c:x.wav', 'c:x.wav'],
      ['Album\\x.wav', 'Album\\x.wav'],
      ['..\\..\\x.wav', '..\\..\\x.wav'],
      ['song\n.wav', 'song?.wav'],
      ['song\u001b[31m.wav', 'song?[31m.wav'],
      ['song\u0000.wav', 'song?.wav'],
    ];
    for (const [name, shown] of refusedNames) {
      await expectRefused(
        owner,
        fundraiser,
        craftedZip([song('01 Fine.wav'), song(name)]),
        `The zip contains a file path that is not allowed: ${shown}`,
      );
    }
    // A name not flagged as UTF-8 (CP437) with a control byte in it.
    const cp437 = craftedZip([{ ...song('x'), name: Buffer.from('song\r.wav', 'latin1'), utf8: false }]);
    await expectRefused(owner, fundraiser, cp437, 'The zip contains a file path that is not allowed: song?.wav');
    // Dots inside a name are fine.
    expect((await sendZip(owner, fundraiser, craftedZip([song('Live..at the Hall...wav')]))).status).toBe(200);
  });

  it('checks the Unicode path extra field and refuses symlinks', async () => {
    const { owner, fundraiser } = await legacyOwner();
    // Info-ZIP Unicode Path (0x7075): most unzip tools use this name over the plain one.
    const plain = Buffer.from('01 Song.wav');
    const unicodeName = Buffer.from('../../01 Song.wav');
    const field = Buffer.alloc(4 + 5 + unicodeName.length);
    field.writeUInt16LE(0x7075, 0);
    field.writeUInt16LE(5 + unicodeName.length, 2);
    field.writeUInt8(1, 4);
    field.writeUInt32LE(zlib.crc32(plain), 5);
    unicodeName.copy(field, 9);
    await expectRefused(
      owner,
      fundraiser,
      craftedZip([{ ...song('01 Song.wav'), extra: field }]),
      'The zip contains a file path that is not allowed: ../../01 Song.wav',
    );

    // A Unix symlink entry (made on Unix, mode 0120777) whose target is ../../.bashrc.
    const link = {
      name: 'Album/02 Song.wav',
      data: Buffer.from('../../.bashrc'),
      versionMadeBy: (3 << 8) | 30,
      externalAttributes: (0o120777 << 16) >>> 0,
    };
    await expectRefused(
      owner,
      fundraiser,
      craftedZip([song('Album/01 Song.wav'), link]),
      'The zip contains a shortcut (symbolic link), which is not allowed: Album/02 Song.wav',
    );
  });

  it('refuses names with invisible bidirectional controls, which disguise what a file is', async () => {
    const { owner, fundraiser } = await legacyOwner();
    for (const control of ['\u202e', '\u202a', '\u2066', '\u2069', '\u200f', '\u061c']) {
      // Shown as "song-exe.wav" in a file manager, but it is "song-\u202evaw.exe" underneath.
      const name = `song-${control}vaw.exe`;
      await expectRefused(
        owner,
        fundraiser,
        craftedZip([song('01 First.wav'), song(name)]),
        albumZipMessages.badPath(name).replace(control, '?'),
      );
    }
    // In a folder name too, and in the Unicode Path field a careful tool prefers.
    await expectRefused(
      owner,
      fundraiser,
      craftedZip([song('01 First.wav'), song('Disc\u202e1/02 Second.wav')]),
      albumZipMessages.badPath('Disc?1/02 Second.wav'),
    );
  });

  it('refuses files that are not audio, images, text or PDF, and keeps the artwork and notes of an album', async () => {
    const { owner, fundraiser } = await legacyOwner();
    for (const name of ['setup.exe', 'Album/run.sh', 'cover.svg', 'song.wav.lnk', 'README', 'Album/index.html']) {
      await expectRefused(
        owner,
        fundraiser,
        await yazlZip([{ name: 'Album/01 Song.wav', data: wav() }, { name }]),
        albumZipMessages.notMusic(name),
      );
    }
    // Finder's copies of a refused file are refused with it.
    await expectRefused(
      owner,
      fundraiser,
      await yazlZip([{ name: 'Album/01 Song.wav', data: wav() }, { name: '__MACOSX/Album/._run.sh' }]),
      albumZipMessages.notMusic('__MACOSX/Album/._run.sh'),
    );
    const album = await yazlZip([
      { name: 'Album/' },
      { name: 'Album/01 Song.wav', data: wav() },
      { name: 'Album/cover.JPG' },
      { name: 'Album/back.png' },
      { name: 'Album/liner-notes.pdf' },
      { name: 'Album/lyrics.txt' },
      { name: 'Album/credits.md' },
      { name: 'Album/.DS_Store' },
      { name: '__MACOSX/Album/._01 Song.wav' },
      { name: '__MACOSX/Album/._cover.JPG' },
    ]);
    const response = await sendZip(owner, fundraiser, album);
    expect(response.status, response.text).toBe(200);
  });

  it('refuses a zip with no audio file in it', async () => {
    const { owner, fundraiser } = await legacyOwner();
    const message = 'The zip holds no audio files (.wav, .mp3, .flac, .m4a, .aac, .ogg, .aiff or .aif).';
    await expectRefused(owner, fundraiser, await yazlZip([]), message);
    // Finder's resource forks and hidden files are not songs, whatever they are called.
    await expectRefused(
      owner,
      fundraiser,
      await yazlZip([
        { name: 'Album/' },
        { name: 'Album/notes.txt' },
        { name: 'Album/song.wav.txt' },
        { name: '__MACOSX/Album/._song.wav' },
        { name: 'Album/._song.wav' },
        { name: '.hidden/song.wav' },
      ]),
      message,
    );
    for (const name of ['a.mp3', 'b.FLAC', 'c.m4a', 'd.aac', 'e.Ogg', 'f.aif', 'Disc 1/g.wav']) {
      const response = await sendZip(owner, fundraiser, await yazlZip([{ name }]));
      expect(response.status, `${name}: ${response.text}`).toBe(200);
    }
  });
  it('refuses entries hidden from the end record or from the central directory', async () => {
    const { owner, fundraiser } = await legacyOwner();
    const evil = { name: '../../evil.sh', data: Buffer.from('#!/bin/sh\nrm -rf ~\n') };
    const unreadable = albumZipMessages.unreadable;

    // The end record counts 1 entry; the directory holds a second, which tools that read the
    // directory by its size (not the count) would extract.
    const oneCounted = craftedZip([song('01.wav'), { ...evil, directoryOnly: { offset: 0 } }], { entries: 1 });
    await expectRefused(owner, fundraiser, oneCounted, unreadable);
    // The same, with the directory size shrunk to the first entry: the second sits between the
    // directory and the end record.
    const shrunk = craftedZip([song('01.wav'), { ...evil, directoryOnly: { offset: 0 } }], {
      entries: 1,
      directorySize: 46 + '01.wav'.length,
    });
    await expectRefused(owner, fundraiser, shrunk, unreadable);

    // Local entries the directory does not list, which a streaming extractor (reading local
    // headers front to back) would write: before, between and after the listed ones.
    const hidden = { ...evil, unlisted: true };
    for (const entries of [
      [hidden, song('01.wav')],
      [song('01.wav'), hidden, song('02.wav')],
      [song('01.wav'), hidden],
    ]) {
      await expectRefused(owner, fundraiser, craftedZip(entries), unreadable);
    }
    // Two directory entries sharing one local entry (how overlapping zip bombs multiply their data).
    const shared = craftedZip([song('01.wav'), { ...song('01.wav'), directoryOnly: { offset: 0 } }]);
    await expectRefused(owner, fundraiser, shared, unreadable);

    // Data descriptors, signed or not, are part of an entry: the entries still tile the file.
    const described = craftedZip([
      { ...song('01.wav'), descriptor: 'signed' },
      { ...song('02.wav'), descriptor: 'unsigned' },
      song('03.wav'),
    ]);
    expect((await sendZip(owner, fundraiser, described)).status).toBe(200);
  });

  it('inflates every entry: sizes that lie, damaged data and unknown compression are refused', async () => {
    const { owner, fundraiser } = await legacyOwner();
    const megabytes = 64 * 1024 * 1024;
    const zeros = deflatedZeros(megabytes);
    const real = { data: zeros.data, crc: zeros.crc, method: 8 };
    expect(
      (await sendZip(owner, fundraiser, craftedZip([{ ...real, name: '01.wav', uncompressedSize: megabytes }]))).status,
    ).toBe(200);
    // 64 MB that claim to be 1,000 bytes: a bomb that lies about its size stops at what it makes.
    const liar = craftedZip([{ ...real, name: '01.wav', uncompressedSize: 1000 }]);
    await expectRefused(owner, fundraiser, liar, albumZipMessages.unreadable);
    // Data that does not match its CRC is damaged, stored or deflated.
    await expectRefused(owner, fundraiser, craftedZip([{ ...song('01.wav'), crc: 1234 }]), albumZipMessages.unreadable);
    const damaged = craftedZip([{ ...real, name: '01.wav', uncompressedSize: megabytes, crc: (zeros.crc ^ 1) >>> 0 }]);
    await expectRefused(owner, fundraiser, damaged, albumZipMessages.unreadable);
    // Deflate64 (method 9), which Windows uses for big files and few tools read.
    await expectRefused(
      owner,
      fundraiser,
      craftedZip([{ ...song('01.wav'), method: 9 }]),
      'The zip uses a kind of compression we cannot read. Please zip your songs again with your computer’s built-in zip tool.',
    );
  }, 60_000);

  it('refuses names Windows cannot create, and a local Unicode path that differs', async () => {
    const { owner, fundraiser } = await legacyOwner();
    for (const name of [
      'song.wav:hidden',
      'Part 1: Intro.wav',
      'Album./01.wav',
      'Album /01.wav',
      '01.wav.',
      '01.wav ',
      'CON',
      'nul.wav',
      'Album/Aux.mp3',
      'COM1.wav',
      'lpt9',
      'con .wav',
      '.',
    ]) {
      await expectRefused(
        owner,
        fundraiser,
        craftedZip([song('01 Fine.wav'), song(name)]),
        `The zip contains a file path that is not allowed: ${name}`,
      );
    }
    // Names that only look like device names are fine.
    const fine = craftedZip([
      song('Console.wav'),
      song('COM10.wav'),
      song('Null and Void.wav'),
      song('Con Brio/1.wav'),
    ]);
    expect((await sendZip(owner, fundraiser, fine)).status).toBe(200);

    const plain = Buffer.from('01 Song.wav');
    const unicodePath = (name: string, crc = zlib.crc32(plain)) => {
      const unicodeName = Buffer.from(name);
      const field = Buffer.alloc(4 + 5 + unicodeName.length);
      field.writeUInt16LE(0x7075, 0);
      field.writeUInt16LE(5 + unicodeName.length, 2);
      field.writeUInt8(1, 4);
      field.writeUInt32LE(crc, 5);
      unicodeName.copy(field, 9);
      return field;
    };
    // The local header's Unicode path (what a streaming extractor uses) climbs out; the
    // directory's has none.
    await expectRefused(
      owner,
      fundraiser,
      craftedZip([{ ...song('01 Song.wav'), localExtra: unicodePath('../../01 Song.wav') }]),
      'The zip contains a file path that is not allowed: ../../01 Song.wav',
    );
    // A safe local name that is not the directory's is a zip that says two things.
    const twoUnicode = craftedZip([{ ...song('01 Song.wav'), localExtra: unicodePath('02 Other.wav') }]);
    await expectRefused(owner, fundraiser, twoUnicode, albumZipMessages.unreadable);
    // A Unicode path whose CRC does not match is ignored by the spec, not by every tool.
    await expectRefused(
      owner,
      fundraiser,
      craftedZip([{ ...song('01 Song.wav'), extra: unicodePath('../x.wav', 1) }]),
      'The zip contains a file path that is not allowed: ../x.wav',
    );
    // The same field in both headers is fine.
    const same = unicodePath('01 Sóng.wav');
    expect((await sendZip(owner, fundraiser, craftedZip([{ ...song('01 Song.wav'), extra: same }]))).status).toBe(200);
  });
});
