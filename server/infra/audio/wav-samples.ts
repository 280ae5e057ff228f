import type { Readable } from 'node:stream';

// What a WAV file's samples are, from its 'fmt ' chunk (Microsoft's RIFF WAVE, and
// WAVE_FORMAT_EXTENSIBLE's sub-format): FLAC and ALAC hold integer samples of up to 24 bits, so a
// 32-bit or floating-point WAV has no lossless copy in them (issue 27; WAV copies it as it is).

export type WavSamples = { kind: 'pcm'; bits: number } | { kind: 'float'; bits: number } | { kind: 'other' };

const WAVE_FORMAT_PCM = 1;
const WAVE_FORMAT_IEEE_FLOAT = 3;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;

/** The samples the WAV whose first bytes are `head` holds, or undefined when `head` is no WAV (or ends before its 'fmt '). */
export function wavSamples(head: Buffer): WavSamples | undefined {
  if (head.length < 12 || head.toString('ascii', 0, 4) !== 'RIFF' || head.toString('ascii', 8, 12) !== 'WAVE') {
    return undefined;
  }
  for (let at = 12; at + 8 <= head.length;) {
    const id = head.toString('ascii', at, at + 4);
    const size = head.readUInt32LE(at + 4);
    const data = at + 8;
    if (id === 'fmt ') {
      if (data + 16 > head.length) return undefined;
      let format = head.readUInt16LE(data);
      const bits = head.readUInt16LE(data + 14);
      // The extensible header names the real format in the first two bytes of its sub-format GUID.
      if (format === WAVE_FORMAT_EXTENSIBLE && size >= 40 && data + 26 <= head.length)
        format = head.readUInt16LE(data + 24);
      if (format === WAVE_FORMAT_PCM) return { kind: 'pcm', bits };
      if (format === WAVE_FORMAT_IEEE_FLOAT) return { kind: 'float', bits };
      return { kind: 'other' };
    }
    // Chunks are padded to an even length.
    at = data + size + (size % 2);
  }
  return undefined;
}

/** The first `bytes` of a stream (it is destroyed after). */
export async function firstBytes(stream: Readable, bytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= bytes) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, bytes);
}
