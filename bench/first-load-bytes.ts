import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { startTestServer } from '../tests/fixtures/test-server';

// Issue 13, compression: the bytes of the first load of `/` (index.html and the scripts and styles
// it names, what a browser fetches before the first paint) as they cross the wire with brotli,
// with gzip, and without compression (the baseline), from the built app. Needs `npm run build`.

type Answer = { bytes: number; encoding: string };

function fetchRaw(url: string, acceptEncoding: string): Promise<Answer & { text?: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const body = Buffer.concat(chunks);
          const encoding = response.headers['content-encoding'] ?? 'identity';
          resolve({ bytes: body.length, encoding, text: encoding === 'identity' ? body.toString() : undefined });
        });
      })
      .on('error', reject);
  });
}

/** The scripts and styles index.html loads before the first paint (module, modulepreload, stylesheet). */
function criticalPaths(html: string): string[] {
  const found = new Set<string>();
  for (const match of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    const tag = match[0];
    const isCritical = /type="module"/.test(tag) || /rel="(?:modulepreload|stylesheet)"/.test(tag);
    const url = /(?:src|href)="(\/[^"]+)"/.exec(tag)?.[1];
    if (isCritical && url && !url.endsWith('.webmanifest')) found.add(url);
  }
  return [...found];
}

export async function benchFirstLoadBytes() {
  const dist = path.resolve('dist');
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    console.log('\nFirst load bytes: skipped (run `npm run build` first)');
    return;
  }
  const server = await startTestServer({ CLIENT_DIST_DIR: dist });
  try {
    const index = await fetchRaw(`${server.baseUrl}/`, '');
    const urls = ['/', ...criticalPaths(index.text ?? '')];
    const totals: Record<string, { bytes: number; encodings: Set<string> }> = {};
    for (const accept of ['', 'gzip', 'br, gzip']) {
      const total = { bytes: 0, encodings: new Set<string>() };
      for (const url of urls) {
        const answer = await fetchRaw(`${server.baseUrl}${url}`, accept);
        total.bytes += answer.bytes;
        total.encodings.add(answer.encoding);
      }
      totals[accept || 'none'] = total;
    }
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    const baseline = totals.none!.bytes;
    console.log(`\nFirst load of /: index.html and the ${urls.length - 1} scripts and styles it loads first`);
    console.log(`  baseline: no compression                     ${kb(baseline).padStart(10)}`);
    for (const [label, key] of [
      ['gzip (precompressed at build time)', 'gzip'],
      ['brotli (precompressed at build time)', 'br, gzip'],
    ] as const) {
      const { bytes, encodings } = totals[key]!;
      console.log(
        `  ${label.padEnd(44)} ${kb(bytes).padStart(10)}  (${(bytes / baseline).toFixed(2)}× the baseline; ${[...encodings].join('/')})`,
      );
    }
  } finally {
    await server.close();
  }
}
