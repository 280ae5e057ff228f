// Renders the PWA icons in public/icons from one SVG (run once after changing the logo; the PNGs
// are committed): 192 and 512 "any", a 512 maskable with the logo inside the safe zone, and the
// 180 px apple-touch-icon.
import fs from 'node:fs';
import sharp from 'sharp';

const mark = (size, inset) => {
  const s = size - inset * 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
<rect width="${size}" height="${size}" ${inset ? '' : `rx="${size * 0.22}"`} fill="#4c2a85"/>
<g transform="translate(${inset} ${inset}) scale(${s / 64})">
<path d="M32 50s-16-9.6-16-21a9 9 0 0 1 16-5.7A9 9 0 0 1 48 29c0 11.4-16 21-16 21z" fill="#ff7a59"/>
<path d="M28 22v16.5a4.5 4.5 0 1 1-3-4.2V24l14-3v13.5a4.5 4.5 0 1 1-3-4.2V24.6z" fill="#fff"/></g></svg>`;
};

fs.mkdirSync('public/icons', { recursive: true });
await sharp(Buffer.from(mark(192, 0)))
  .png()
  .toFile('public/icons/icon-192.png');
await sharp(Buffer.from(mark(512, 0)))
  .png()
  .toFile('public/icons/icon-512.png');
await sharp(Buffer.from(mark(512, 80)))
  .png()
  .toFile('public/icons/maskable-512.png');
await sharp(Buffer.from(mark(180, 0)))
  .flatten({ background: '#4c2a85' })
  .png()
  .toFile('public/icons/apple-touch-icon.png');
console.log('icons written to public/icons');
