import { type CSSProperties, useState } from 'react';
import type { Nonprofit } from '../../shared/answers/charities';
import './charity-logo.css';

const minorWords = new Set(['a', 'an', 'and', 'at', 'for', 'in', 'of', 'on', 'the', 'to', '&']);

/** Up to three letters from a charity's name: 'American Cancer Society' → 'ACS'. */
export function charityInitials(name: string): string {
  const words = name
    .replace(/\(.*?\)/g, ' ')
    .split(/\s+/)
    .map((word) => word.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter((word) => word && !minorWords.has(word.toLowerCase()));
  return words
    .slice(0, 3)
    .map((word) => word.charAt(0).toUpperCase())
    .join('');
}

/** A stable hue per charity, so initials tiles differ from each other but not between visits. */
function hueOf(ein: string): number {
  let hash = 0;
  for (const char of ein) hash = (hash * 31 + char.charCodeAt(0)) % 360;
  return hash;
}

/** Only http(s) addresses become links (the directory is outside data; this keeps `javascript:` out). */
export function safeWebsite(website: string | undefined): string | null {
  return website && /^https?:\/\//i.test(website) ? website : null;
}

/**
 * A charity's logo, or where there is none (or it fails to load) a tile of its initials with its
 * name written out. The logo's alternative text is the charity's name.
 */
export function CharityLogo({ charity }: { charity: Pick<Nonprofit, 'ein' | 'name' | 'logoUrl'> }) {
  const [failed, setFailed] = useState(false);
  const logo = safeWebsite(charity.logoUrl);
  if (logo && !failed) {
    return (
      <span className="charity-logo">
        <img src={logo} alt={charity.name} loading="lazy" decoding="async" onError={() => setFailed(true)} />
      </span>
    );
  }
  const style: CSSProperties & { '--charity-hue': number } = { '--charity-hue': hueOf(charity.ein) };
  return (
    <span className="charity-logo charity-logo-text" style={style}>
      <span className="charity-initials" aria-hidden="true">
        {charityInitials(charity.name)}
      </span>
      <span className="charity-logo-name">{charity.name}</span>
    </span>
  );
}
