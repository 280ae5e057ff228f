import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Fundraiser } from '../../shared/answers/fundraisers';
import { iconPaths } from '../../shared/icon-paths';
import { pictureSizes } from '../../shared/constants';
import { EAGER_TILES, fundraiserPath, fundraiserTitle } from '../../shared/public-pages';
import { UploadedPicture } from './uploaded-picture';
import './tile.css';
import './fundraiser-tile.css';

/** What a tile needs: a fundraiser from any list (search, featured, an artist's, the user's own). */
export type FundraiserTileData = Pick<Fundraiser, 'id' | 'urlSlug' | 'name' | 'albumCover' | 'supportedOrg'> & {
  artist: Pick<Fundraiser['artist'], 'name'>;
};

type FundraiserTileProps = {
  fundraiser: FundraiserTileData;
  /** The tile's heading level under the list's own heading. */
  headingLevel: 2 | 3;
  /** Where the tile leads; the public page unless a list says otherwise (the user's list manages). */
  to?: string;
  /** The word shown over the cover on hover and focus: 'View' on public lists, 'Manage' on the user's. */
  hoverText?: string;
  /** How wide the tile is drawn, so the cover's smallest sharp rendition is fetched. */
  sizes?: string;
  /** Where the tile sits in its list: the first ones are on screen at once and load eagerly. */
  position?: number;
  /** Extra lines under the charity (a status chip, say); they sit above the tile's link. */
  children?: ReactNode;
};

/**
 * A fundraiser as a card: album cover, name, artist and charity, all one link (the heading's link
 * stretches over the card, so anything passed as children stays a separate control).
 */
export function FundraiserTile({
  fundraiser,
  headingLevel,
  to = fundraiserPath(fundraiser),
  hoverText = 'View',
  sizes = pictureSizes.fundraiserTile,
  position,
  children,
}: FundraiserTileProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className="card tile fundraiser-tile">
      <div className="tile-media">
        <UploadedPicture
          uploadId={fundraiser.albumCover}
          alt=""
          sizes={sizes}
          eager={position !== undefined && position < EAGER_TILES}
          priority={position === 0}
        />
        <span className="tile-hover" aria-hidden="true">
          {hoverText}
        </span>
      </div>
      <div className="tile-body">
        <Heading className="tile-name">
          <Link className="tile-link" to={to}>
            {fundraiserTitle(fundraiser)}
          </Link>
        </Heading>
        <p className="fundraiser-tile-artist">{fundraiser.artist.name}</p>
        {fundraiser.supportedOrg && (
          <p className="fundraiser-tile-charity">
            <span className="visually-hidden">Supports </span>
            <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
              <path fill="currentColor" d={iconPaths.heart} />
            </svg>
            <span>{fundraiser.supportedOrg}</span>
          </p>
        )}
        {children && <div className="tile-extra">{children}</div>}
      </div>
    </article>
  );
}
