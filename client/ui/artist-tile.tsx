import { Link } from 'react-router';
import type { Artist } from '../../shared/answers/artists';
import { pictureSizes } from '../../shared/constants';
import { artistPath, EAGER_TILES } from '../../shared/public-pages';
import { UploadedPicture } from './uploaded-picture';
import './tile.css';
import './artist-tile.css';

type ArtistTileProps = {
  artist: Artist;
  /** The tile's heading level under the list's own heading. */
  headingLevel: 2 | 3;
  /** The owner's controls: status chip, Edit and Delete (spec part 1 section 2, Artist tile list). */
  onDelete?: (artist: Artist) => void;
  /** Where the tile sits in its list: the first ones are on screen at once and load eagerly. */
  position?: number;
};

/**
 * An artist as a card: picture, name and three lines of description, all one link to the public
 * page (the heading's link stretches over the card, so Edit and Delete stay separate controls).
 */
export function ArtistTile({ artist, headingLevel, onDelete, position }: ArtistTileProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className="card tile artist-tile">
      <div className="tile-media">
        <UploadedPicture
          uploadId={artist.profileImage}
          alt=""
          sizes={pictureSizes.gridTile}
          eager={position !== undefined && position < EAGER_TILES}
          priority={position === 0}
        />
        <span className="tile-hover" aria-hidden="true">
          View
        </span>
      </div>
      <div className="tile-body">
        <Heading className="tile-name">
          <Link className="tile-link" to={artistPath(artist)}>
            {artist.name}
          </Link>
        </Heading>
        <p className="artist-tile-description">{artist.description}</p>
        {onDelete && (
          <div className="tile-extra artist-tile-manage">
            <span className={`chip ${artist.status === 'PUBLISHED' ? 'chip-success' : 'chip-warning'}`}>
              {artist.status}
            </span>
            <span className="artist-tile-actions">
              <Link className="button button-ghost artist-tile-action" to={`/artists/user/${artist.id}/edit`}>
                Edit<span className="visually-hidden"> {artist.name}</span>
              </Link>
              <button
                type="button"
                className="button button-ghost artist-tile-action artist-tile-delete"
                onClick={() => onDelete(artist)}
              >
                Delete<span className="visually-hidden"> {artist.name}</span>
              </button>
            </span>
          </div>
        )}
      </div>
    </article>
  );
}
