import fs from 'node:fs';
import path from 'node:path';
import { GOAL_BAR_SEGMENTS, goalSegmentsFilled, imageSrcSet, imageUrl } from '../../../shared/constants';
import { EMBED_SOURCE, type EmbedData, type EmbedOptions } from '../../../shared/embed';
import { escapeHtml, scriptSafeJson } from '../../../shared/html';
import { formatCents } from '../../../shared/money';
import type { Fundraiser } from '../../../shared/answers/fundraisers';

// The embedded player's page (issue 28; DESIGN.md wave 3, "embeds"), drawn whole on the server:
// everything a visitor reads is in the HTML, so it paints before any script runs, and the page's
// own small script (client/embed/main.ts, its own build entry: no React, no app shell, no service
// worker) only makes the buttons play. No inline style or script: its policy allows only the
// site's own files (security-headers.ts), and a data block is never run.

type EmbedAssets = { js: string; css: string[] };

/** The built entry's files, from Vite's manifest (vite.config.ts names the entry `embed/main.ts`). */
export function embedAssetsOf(distDir: string): () => EmbedAssets | undefined {
  let found: EmbedAssets | null | undefined;
  return () => {
    if (found === undefined) {
      try {
        const manifest = JSON.parse(fs.readFileSync(path.join(distDir, '.vite', 'manifest.json'), 'utf8')) as Record<
          string,
          { file: string; css?: string[] }
        >;
        const entry = manifest['embed/main.ts'];
        found = entry ? { js: entry.file, css: entry.css ?? [] } : null;
      } catch {
        found = null;
      }
    }
    return found ?? undefined;
  };
}

/** The previews the player plays: each track's, in order; or, with none, the album's one preview. */
function previewsOf(fundraiser: Fundraiser): EmbedData['tracks'] {
  const tracks = fundraiser.tracksList.flatMap((track) =>
    track.previewPath ? [{ name: track.name, src: track.previewPath }] : [],
  );
  if (tracks.length > 0 || !fundraiser.previewTrackPreview) return tracks;
  return [{ name: fundraiser.previewTrackName || fundraiser.name, src: fundraiser.previewTrackPreview }];
}

const PLAY_ICON = '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M8 5v14l11-7z"/></svg>';
const PAUSE_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M6 5h4v14H6zM14 5h4v14h-4z"/></svg>';
const NEXT_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M6 6v12l8.5-6zM16 6h2v12h-2z"/></svg>';

function goalHtml(fundraiser: Fundraiser): string {
  const raised = fundraiser.totalRaised ?? 0;
  const goal = fundraiser.donationGoal ?? fundraiser.fundraisingGoalCents ?? 0;
  if (goal <= 0) return `<p class="embed-raised">${escapeHtml(formatCents(raised))} raised</p>`;
  const filled = goalSegmentsFilled(raised, goal);
  const percent = Math.min(100, Math.floor((raised * 100) / goal));
  const text = `${formatCents(raised)} raised of a ${formatCents(goal)} goal`;
  const segments = Array.from(
    { length: GOAL_BAR_SEGMENTS },
    (_, index) => `<span class="embed-segment${index < filled ? ' embed-segment-filled' : ''}"></span>`,
  ).join('');
  return (
    `<div class="embed-goal"><div class="embed-segments" role="progressbar" aria-label="Progress toward the goal" ` +
    `aria-valuemin="0" aria-valuemax="100" aria-valuenow="${percent}" aria-valuetext="${percent}%: ${escapeHtml(text)}">` +
    `${segments}</div><p class="embed-raised">${escapeHtml(text)}</p></div>`
  );
}

function coverHtml(fundraiser: Fundraiser, title: string, options: EmbedOptions): string {
  if (!fundraiser.albumCover) return '<div class="embed-cover embed-cover-missing" aria-hidden="true"></div>';
  const sizes = options.size === 'compact' ? '96px' : '(min-width: 420px) 140px, 96px';
  return (
    `<picture class="embed-cover"><source type="image/webp" srcset="${escapeHtml(imageSrcSet(fundraiser.albumCover, 'webp'))}" sizes="${sizes}">` +
    `<img src="${escapeHtml(imageUrl(fundraiser.albumCover, 400, 'jpg'))}" srcset="${escapeHtml(imageSrcSet(fundraiser.albumCover, 'jpg'))}" ` +
    `sizes="${sizes}" width="140" height="140" alt="Album cover of ${escapeHtml(title)}" fetchpriority="high"></picture>`
  );
}

function playerHtml(tracks: EmbedData['tracks']): string {
  if (tracks.length === 0) return '<p class="embed-no-preview">No preview to play yet.</p>';
  const first = tracks[0]!;
  return (
    `<div class="embed-player" role="group" aria-label="Preview player">` +
    `<button type="button" class="embed-play" aria-label="Play preview of ${escapeHtml(first.name)}">` +
    `<span class="embed-icon-play">${PLAY_ICON}</span><span class="embed-icon-pause">${PAUSE_ICON}</span></button>` +
    (tracks.length > 1
      ? `<button type="button" class="embed-next" aria-label="Next preview">${NEXT_ICON}</button>`
      : '') +
    `<div class="embed-progress"><p class="embed-now" aria-live="polite"><span class="visually-hidden">Preview: </span>` +
    `<span class="embed-now-name">${escapeHtml(first.name)}</span></p>` +
    `<div class="embed-seek-row"><input type="range" class="embed-seek" min="0" max="30" step="1" value="0" ` +
    `aria-label="Position in the preview" aria-valuetext="0:00" disabled>` +
    `<span class="embed-time" aria-hidden="true">0:00</span></div></div></div>`
  );
}

function trackListHtml(tracks: EmbedData['tracks']): string {
  if (tracks.length < 2) return '';
  const items = tracks
    .map(
      (track, index) =>
        // Named by what it shows (its number and name), with what it does before them for screen
        // readers, which the script turns to "Pause preview of" while it plays.
        `<li><button type="button" class="embed-track" data-index="${index}">` +
        `<span class="visually-hidden embed-track-action">Play preview of </span>` +
        `<span class="embed-track-number">${index + 1}</span> ` +
        `<span class="embed-track-name">${escapeHtml(track.name)}</span></button></li>`,
    )
    .join('');
  return `<section class="embed-tracks" aria-label="Previews"><ol>${items}</ol></section>`;
}

export type EmbedPageInput = {
  fundraiser: Fundraiser;
  options: EmbedOptions;
  siteName: string;
  /** The site's own address, for the canonical link. */
  origin: string;
  assets: EmbedAssets;
};

/** The whole page: the same for every visitor, so it is made once per fundraiser and size (routes.ts). */
export function embedPageHtml({ fundraiser, options, siteName, origin, assets }: EmbedPageInput): string {
  const title = `${fundraiser.name} by ${fundraiser.artist.name}`;
  const slug = encodeURIComponent(fundraiser.urlSlug ?? String(fundraiser.id));
  const pagePath = `/projects/${slug}`;
  const artistPath = `/artists/${encodeURIComponent(fundraiser.artist.urlSlug ?? String(fundraiser.artist.id))}`;
  const tracks = previewsOf(fundraiser);
  const data: EmbedData = {
    fundraiserId: fundraiser.id,
    title: fundraiser.name,
    artist: fundraiser.artist.name,
    artwork: fundraiser.albumCover
      ? [
          { src: imageUrl(fundraiser.albumCover, 96, 'jpg'), sizes: '96x96', type: 'image/jpeg' },
          { src: imageUrl(fundraiser.albumCover, 400, 'jpg'), sizes: '400x400', type: 'image/jpeg' },
        ]
      : [],
    tracks,
  };
  const newTab = '<span class="visually-hidden"> (opens in a new tab)</span>';
  const css = assets.css.map((file) => `<link rel="stylesheet" href="/${escapeHtml(file)}">`).join('');
  return `<!doctype html>
<html lang="en" class="embed-${options.theme} embed-${options.size}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} | ${escapeHtml(siteName)}</title>
<meta name="robots" content="noindex">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="canonical" href="${escapeHtml(origin + pagePath)}">
${css}
<script type="module" src="/${escapeHtml(assets.js)}"></script>
</head>
<body>
<main class="embed">
${coverHtml(fundraiser, title, options)}
<div class="embed-body">
<h1 class="embed-title"><a href="${pagePath}" target="_blank" rel="noopener">${escapeHtml(fundraiser.name)}${newTab}</a></h1>
<p class="embed-artist">by <a href="${artistPath}" target="_blank" rel="noopener">${escapeHtml(fundraiser.artist.name)}${newTab}</a></p>
<p class="embed-charity">For <strong>${escapeHtml(fundraiser.supportedOrg)}</strong><span class="embed-ein"> (EIN ${escapeHtml(fundraiser.supportedOrgEin)})</span></p>
${goalHtml(fundraiser)}
${playerHtml(tracks)}
</div>
<a class="embed-donate" href="${pagePath}/donate?source=${EMBED_SOURCE}" target="_blank" rel="noopener">Donate${newTab}</a>
${options.size === 'full' ? trackListHtml(tracks) : ''}
<p class="embed-site"><a href="/" target="_blank" rel="noopener">${escapeHtml(siteName)}${newTab}</a></p>
</main>
<script type="application/json" id="embed-data">${scriptSafeJson(JSON.stringify(data))}</script>
</body>
</html>`;
}
