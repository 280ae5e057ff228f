import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { LibraryAlbum } from '../../../shared/answers/library';
import { AlbumCover } from './album-cover';
import { albumTitle } from '../../../shared/album-links';
import '../../ui/tile.css';
import './music.css';

export const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

type AlbumTileProps = { album: LibraryAlbum; to: string; caption: ReactNode };

/** An album as a card: cover, album, artist and a caption (a date), all one link to the album page. */
export function AlbumTile({ album, to, caption }: AlbumTileProps) {
  return (
    <article className="card tile album-tile">
      <div className="tile-media">
        <AlbumCover src={album.image} alt="" />
        <span className="tile-hover" aria-hidden="true">
          Listen
        </span>
      </div>
      <div className="tile-body">
        <h3 className="tile-name">
          <Link className="tile-link" to={to}>
            {albumTitle(album)}
          </Link>
        </h3>
        <p className="album-tile-artist">{album.artistName}</p>
        <p className="album-tile-date">{caption}</p>
      </div>
    </article>
  );
}
