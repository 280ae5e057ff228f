import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import type { Artist } from '../../../shared/answers/artists';
import { ARTIST_LINK_ROWS, linkLabelKey, linkUrlKey } from '../../../shared/artist-links';
import { artistFundraisersQueryOptions } from '../../api/fundraisers';
import { ApiError } from '../../api/errors';
import { useUser } from '../../lib/session';
import { usePageTitle } from '../../lib/site';
import { AdminMenu } from '../../ui/admin-menu';
import { Alert } from '../../ui/alert';
import { FundraiserTile } from '../../ui/fundraiser-tile';
import { Spinner } from '../../ui/spinner';
import { pictureSizes } from '../../../shared/constants';
import { UploadedPicture } from '../../ui/uploaded-picture';
import { userArtistsQueryOptions } from '../../api/artists';
import { artistByIdQueryOptions, artistBySlugQueryOptions, usePublishArtist } from './api';
import { ArtistNotFound } from './artist-not-found';
import { DeleteArtistDialog } from './delete-artist-dialog';
import { NetworkButton } from '../../ui/needs-network';
import './artists.css';
import { LoadFailure } from '../../ui/offline-notice';

/** The public artist page, /artists/{artistSlugOrId} (spec part 1 section 2). */
export function ArtistPage() {
  const { artistSlugOrId = '' } = useParams();
  // Slugs are never purely numeric (the server prefixes such names), so digits are an id.
  if (/^\d+$/.test(artistSlugOrId)) return <ArtistById key={artistSlugOrId} id={Number(artistSlugOrId)} />;
  return <ArtistBySlug key={artistSlugOrId} slug={artistSlugOrId} />;
}

/** A numeric id in the path is replaced by the slug once the artist is known. */
function ArtistById({ id }: { id: number }) {
  const artist = useQuery(artistByIdQueryOptions(id));
  if (artist.data?.urlSlug) return <Navigate to={`/artists/${encodeURIComponent(artist.data.urlSlug)}`} replace />;
  return <ArtistLoaded query={artist} />;
}

/** A slug the artist had before a rename (a link shared with it) moves to the current one. */
function ArtistBySlug({ slug }: { slug: string }) {
  const artist = useQuery(artistBySlugQueryOptions(slug));
  if (artist.data?.urlSlug && artist.data.urlSlug !== slug) {
    return <Navigate to={`/artists/${encodeURIComponent(artist.data.urlSlug)}`} replace />;
  }
  return <ArtistLoaded query={artist} />;
}

function ArtistLoaded({ query }: { query: UseQueryResult<Artist> }) {
  const notFound = query.error instanceof ApiError && query.error.status === 404;
  usePageTitle(query.data?.name ?? (notFound ? 'Artist not found' : 'Artist'));
  if (query.isPending) return <Spinner label="Loading artist" />;
  if (notFound) return <ArtistNotFound />;
  if (query.isError) {
    return (
      <div className="page narrow">
        <LoadFailure error={query.error} retry={query.refetch}>
          <Alert tone="error">Something went wrong, unable to fetch artist</Alert>
        </LoadFailure>
      </div>
    );
  }
  return <ArtistProfile artist={query.data} />;
}

/** Only http(s) addresses become links (the schema insists on it; this keeps `javascript:` out regardless). */
function safeUrl(url: string | undefined): string | null {
  return url && /^https?:\/\//i.test(url.trim()) ? url.trim() : null;
}

type ProfileLink = { key: string; href: string; text: string };

/**
 * The website (shown as its address) and the link rows with both halves (shown by their labels),
 * in the form's order (spec part 1 section 4: 'website0-3 and url0-3').
 */
function profileLinks(artist: Artist): ProfileLink[] {
  const website = safeUrl(artist.website);
  const links: ProfileLink[] = website
    ? [{ key: 'website', href: website, text: website.replace(/^https?:\/\//i, '').replace(/\/$/, '') }]
    : [];
  for (const row of ARTIST_LINK_ROWS) {
    const label = artist[linkLabelKey(row)].trim();
    const href = safeUrl(artist[linkUrlKey(row)]);
    if (label && href) links.push({ key: `link${row}`, href, text: label });
  }
  return links;
}

/**
 * What the artist wrote is a link to somewhere we do not vouch for: opened in a new tab that
 * cannot reach back to this one (noopener), told nothing of where it came from (noreferrer), and
 * marked as user-generated for search engines (ugc).
 */
function ArtistLinks({ links }: { links: ProfileLink[] }) {
  if (links.length === 0) return null;
  return (
    <ul className="artist-links-list" aria-label="Links">
      {links.map((link) => (
        <li key={link.key}>
          <a href={link.href} target="_blank" rel="noopener noreferrer ugc">
            {link.text}
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

function ArtistProfile({ artist }: { artist: Artist }) {
  const user = useUser();
  const navigate = useNavigate();
  const isAdmin = Boolean(user?.isAdmin);
  const own = useQuery({ ...userArtistsQueryOptions, enabled: Boolean(user) && !isAdmin });
  // Only its owner and admins are shown a draft, so a draft a non-admin sees is their own.
  const isOwner =
    Boolean(user) &&
    !isAdmin &&
    (artist.status === 'DRAFT' || Boolean(own.data?.some((item) => item.id === artist.id)));
  const publish = usePublishArtist();
  const [deleting, setDeleting] = useState<Artist | null>(null);
  const aboutId = useId();
  const editPath = `/artists/user/${artist.id}/edit`;

  function handlePublish() {
    // Spec part 1 section 8: a failed publish is only logged; the button is usable again.
    publish.mutate(artist.id, { onError: (error) => console.error('Unable to publish artist', error) });
  }

  return (
    <div className="page stack artist-page">
      {artist.status === 'DRAFT' && (
        <DraftNotice
          artist={artist}
          editPath={editPath}
          canPublish={isOwner}
          publishing={publish.isPending}
          onPublish={handlePublish}
        />
      )}
      <div className="artist-profile">
        <UploadedPicture
          className="artist-profile-picture"
          uploadId={artist.profileImage}
          alt={`Profile picture of ${artist.name}`}
          sizes={pictureSizes.artistPicture}
          priority
        />
        <div className="artist-profile-text">
          <div className="page-heading">
            <h1>{artist.name}</h1>
            {isAdmin && (
              <ArtistAdminMenu
                artist={artist}
                editPath={editPath}
                publishing={publish.isPending}
                onPublish={handlePublish}
                onDelete={() => setDeleting(artist)}
              />
            )}
            {isOwner && (
              <Link className="button button-secondary" to={editPath}>
                Edit artist
              </Link>
            )}
          </div>
          <ArtistLinks links={profileLinks(artist)} />
          <section aria-labelledby={aboutId}>
            <h2 id={aboutId}>About</h2>
            <p className="artist-about">{artist.description}</p>
          </section>
        </div>
      </div>
      <RecentFundraisers artistId={artist.id} />
      <DeleteArtistDialog
        artist={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={() => navigate('/browse/artists')}
      />
    </div>
  );
}

/** The artist's published fundraisers, newest first (spec part 1 section 2: hover text 'View'). */
function RecentFundraisers({ artistId }: { artistId: number }) {
  const headingId = useId();
  const fundraisers = useQuery(artistFundraisersQueryOptions(artistId));
  return (
    <section className="section stack" aria-labelledby={headingId}>
      <h2 id={headingId}>Recent fundraisers</h2>
      {fundraisers.isPending ? (
        <Spinner label="Loading fundraisers" />
      ) : fundraisers.isError ? (
        <LoadFailure error={fundraisers.error} retry={fundraisers.refetch}>
          <Alert tone="error">Something went wrong!</Alert>
        </LoadFailure>
      ) : fundraisers.data.length === 0 ? (
        <p className="empty-state">No fundraisers yet.</p>
      ) : (
        <ul className="grid fundraiser-tiles" role="list">
          {fundraisers.data.map((fundraiser) => (
            <li key={fundraiser.id}>
              <FundraiserTile fundraiser={fundraiser} headingLevel={3} hoverText="View" />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** What publishing still needs, in words (the server's rule: name, description and profile image). */
function missingForPublishing(artist: Artist): string {
  const missing = [
    ...(artist.name.trim() ? [] : ['a name']),
    ...(artist.description.trim() ? [] : ['a description']),
    ...(artist.profileImage ? [] : ['a profile image']),
  ];
  if (missing.length === 0) return 'a name, a description and a profile image';
  return missing.length === 1 ? (missing[0] ?? '') : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}`;
}

type DraftNoticeProps = {
  artist: Artist;
  editPath: string;
  /** The owner's publish prompt (spec part 1 section 2); admins publish from their menu. */
  canPublish: boolean;
  publishing: boolean;
  onPublish: () => void;
};

function DraftNotice({ artist, editPath, canPublish, publishing, onPublish }: DraftNoticeProps) {
  return (
    <Alert tone="warning" title="Draft">
      <p>This artist is a draft: only its owner and admins can see this page.</p>
      {artist.isPublishable ? (
        canPublish && (
          <div className="artist-publish-prompt">
            <p>Ready for fans? Publish it to make it public and searchable.</p>
            <NetworkButton
              action="publish"
              type="button"
              className="button button-primary"
              disabled={publishing}
              onClick={onPublish}
            >
              {publishing ? 'Publishing...' : 'Publish'}
            </NetworkButton>
          </div>
        )
      ) : (
        <p>
          Before it can be published, add {missingForPublishing(artist)}. <Link to={editPath}>Edit artist</Link>
        </p>
      )}
    </Alert>
  );
}

type AdminMenuProps = {
  artist: Artist;
  editPath: string;
  publishing: boolean;
  onPublish: () => void;
  onDelete: () => void;
};

/** The artist page's admin menu items (spec part 1 section 2). */
function ArtistAdminMenu({ artist, editPath, publishing, onPublish, onDelete }: AdminMenuProps) {
  return (
    <AdminMenu>
      {artist.status === 'DRAFT' && (
        <DropdownMenu.Item className="menu-item" disabled={publishing} onSelect={onPublish}>
          Publish artist
        </DropdownMenu.Item>
      )}
      <DropdownMenu.Item asChild className="menu-item">
        <Link to={editPath}>Edit artist</Link>
      </DropdownMenu.Item>
      <DropdownMenu.Separator className="menu-separator" />
      <DropdownMenu.Item className="menu-item menu-item-danger" onSelect={onDelete}>
        Delete this artist
      </DropdownMenu.Item>
    </AdminMenu>
  );
}
