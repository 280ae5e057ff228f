// The embeddable player (issue 28; DESIGN.md wave 3, "embeds"): its address, its sizes and the
// code a page pastes to show it. One place, so the Share dialog's embed code, the oEmbed answer and
// the embed page itself agree on every pixel.

export const EMBED_SIZES = ['compact', 'full'] as const;
export type EmbedSize = (typeof EMBED_SIZES)[number];

export const EMBED_THEMES = ['light', 'dark'] as const;
export type EmbedTheme = (typeof EMBED_THEMES)[number];

export type EmbedOptions = { size: EmbedSize; theme: EmbedTheme };
export const DEFAULT_EMBED: EmbedOptions = { size: 'full', theme: 'light' };

/**
 * The frame each size is drawn for. Compact is one row (cover, names, controls); full adds the
 * goal, the charity and the track list, which scrolls inside the frame when an album is long.
 * The width is what an embed asks for by default: the page itself fills any width from 240 px up.
 */
export const EMBED_FRAME = {
  width: 480,
  minWidth: 240,
  height: { compact: 120, full: 460 } satisfies Record<EmbedSize, number>,
} as const;

/** Where the page of a fundraiser's player is, on the site at `origin`. Defaults stay out of the address. */
export function embedUrl(origin: string, slug: string, options: Partial<EmbedOptions> = {}): string {
  const query = new URLSearchParams();
  if (options.size && options.size !== DEFAULT_EMBED.size) query.set('size', options.size);
  if (options.theme && options.theme !== DEFAULT_EMBED.theme) query.set('theme', options.theme);
  const search = query.toString();
  return `${origin}/embed/fundraisers/${encodeURIComponent(slug)}${search ? `?${search}` : ''}`;
}

/** Reads `?size=&theme=` as the embed page does: anything unknown is the default. */
export function readEmbedOptions(query: { get(name: string): string | null | undefined }): EmbedOptions {
  const size = query.get('size');
  const theme = query.get('theme');
  return {
    size: EMBED_SIZES.find((known) => known === size) ?? DEFAULT_EMBED.size,
    theme: EMBED_THEMES.find((known) => known === theme) ?? DEFAULT_EMBED.theme,
  };
}

/** Named entities: the code is read by the people who paste it, who know `&amp;` better than `&#38;`. */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
function escapeAttribute(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}

/**
 * The `<iframe>` a page pastes (the Share dialog's embed code, oEmbed's `html`). Its title names
 * the player for screen readers; `allow="autoplay"` lets the next preview start after one ends;
 * `loading="lazy"` keeps a player far down a page from costing the page its first paint. The
 * width is 100% up to the size asked for, so the player fits a phone's column too.
 */
export function embedCode(
  origin: string,
  slug: string,
  title: string,
  options: EmbedOptions,
  width: number = EMBED_FRAME.width,
  height: number = EMBED_FRAME.height[options.size],
): string {
  const src = embedUrl(origin, slug, options);
  return (
    `<iframe src="${escapeAttribute(src)}" title="${escapeAttribute(title)}" width="${width}" height="${height}" ` +
    `style="border:0;width:100%;max-width:${width}px;height:${height}px" allow="autoplay" loading="lazy"></iframe>`
  );
}

/** What a screen reader calls the player's frame: the same in the Share dialog's code and oEmbed's. */
export function embedTitle(fundraiser: { name: string; artist: { name: string } }, siteName: string): string {
  return `${fundraiser.name} by ${fundraiser.artist.name} on ${siteName}`;
}

/**
 * What the embed page carries for its script (server/features/sharing/embed-page.ts writes it,
 * client/embed/main.ts reads it): the previews and what the lock screen shows of them.
 */
export type EmbedData = {
  fundraiserId: number;
  title: string;
  artist: string;
  artwork: { src: string; sizes: string; type: string }[];
  tracks: { name: string; src: string }[];
};

/** Where a play or a donation came from: an embed is told apart, nothing about the visitor is kept. */
export const EMBED_SOURCE = 'embed';
