// Writes a brotli (.br) and a gzip (.gz) copy beside every text file of the built client, once, at
// the highest settings, so the server sends them as they are (server/http/client-app.ts) instead
// of compressing on every request (issue 13). Images, audio and fonts are compressed already.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const TEXT = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;
const MIN_BYTES = 1024;

/** Precompresses every text file under `dir`; returns how many files and bytes before and after. */
export function precompress(dir) {
  let files = 0;
  let before = 0;
  let afterBrotli = 0;
  const walk = (folder) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        walk(file);
        continue;
      }
      if (!TEXT.test(entry.name)) continue;
      const bytes = fs.readFileSync(file);
      if (bytes.length < MIN_BYTES) continue;
      const brotli = zlib.brotliCompressSync(bytes, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      });
      fs.writeFileSync(`${file}.br`, brotli);
      fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bytes, { level: 9 }));
      files++;
      before += bytes.length;
      afterBrotli += brotli.length;
    }
  };
  walk(dir);
  return { files, before, afterBrotli };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = path.resolve(process.argv[2] ?? 'dist');
  const { files, before, afterBrotli } = precompress(dir);
  console.log(
    `precompressed ${files} files: ${(before / 1024).toFixed(0)} KB → ${(afterBrotli / 1024).toFixed(0)} KB brotli`,
  );
}
