import { useId } from 'react';
import { Link } from 'react-router';
import type { Fundraiser } from '../../shared/answers/fundraisers';
import { fundraiserPath } from '../../shared/public-pages';
import { UploadedPicture } from './uploaded-picture';

/** The 'Greatest Hits' promo card (promo-aside.tsx decides where and when it shows). */
export function PromoAside({ fundraiser }: { fundraiser: Fundraiser }) {
  const headingId = useId();
  const path = fundraiserPath(fundraiser);
  return (
    <aside className="promo-aside card" aria-labelledby={headingId}>
      <UploadedPicture
        className="promo-aside-cover"
        uploadId={fundraiser.albumCover}
        alt=""
        sizes="(min-width: 1280px) 160px, 128px"
      />
      <div className="promo-aside-text">
        <p className="promo-aside-eyebrow">Featured album</p>
        <h2 id={headingId} className="promo-aside-name">
          {fundraiser.name}
        </h2>
        <p className="promo-aside-artist">{fundraiser.artist.name}</p>
        <p className="promo-aside-charity">Supports {fundraiser.supportedOrg}</p>
        <Link className="button button-primary promo-aside-button" to={path}>
          Listen &amp; donate<span className="visually-hidden">: {fundraiser.name}</span>
        </Link>
      </div>
    </aside>
  );
}
