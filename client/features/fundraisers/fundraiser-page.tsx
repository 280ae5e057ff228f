import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, type RefObject, Suspense, useId, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { pictureSizes, VIDEO_EMBED_ORIGINS } from '../../../shared/constants';
import { formatCents } from '../../../shared/money';
import { formatPlaybackTime, isoDuration } from '../../../shared/time';
import type { Fundraiser, FundraiserTrack } from '../../../shared/answers/fundraisers';
import { fundraiserKeys, fundraiserQueryOptions } from '../../api/fundraisers';
import { useUser } from '../../lib/session';
import { usePageTitle } from '../../lib/site';
import { Alert } from '../../ui/alert';
import { artistPath, fundraiserPath, fundraiserTitle } from '../../../shared/public-pages';
import { Spinner } from '../../ui/spinner';
import { pauseThePlayer } from '../../player/player-dock';
import { UploadedPicture } from '../../ui/uploaded-picture';
import { ledgerPath, safeWebsite } from '../../lib/links';
import { GoalBar } from './goal-bar';
import { useHasBeenTrue } from '../../lib/use-has-been-true';
import './fundraisers.css';
import { isNotFound } from '../../api/http';
import { LoadFailure } from '../../ui/offline-notice';
import { formatCount } from '../../../shared/format-count';
import { WhenNear } from '../../ui/when-near';

// What only owners and admins use loads when they use it, and the not-found page when it is needed
// (issue 13): a visitor's page carries no menu or dialog library.
const FundraiserAdminMenu = lazy(() =>
  import('./fundraiser-admin-menu').then((m) => ({ default: m.FundraiserAdminMenu })),
);
const PublishFundraiserDialog = lazy(() =>
  import('./publish-fundraiser-dialog').then((m) => ({ default: m.PublishFundraiserDialog })),
);
const DeleteFundraiserDialog = lazy(() =>
  import('./delete-fundraiser-dialog').then((m) => ({ default: m.DeleteFundraiserDialog })),
);
// The Share dialog too, fetched ahead as the pointer or the focus comes to its button (issue 28).
const loadShareDialog = () => import('./share-dialog');
const ShareDialog = lazy(() => loadShareDialog().then((m) => ({ default: m.ShareDialog })));
const PublishButton = lazy(() => import('./publish-button').then((m) => ({ default: m.PublishButton })));
const FundraiserNotFound = lazy(() =>
  import('./fundraiser-not-found').then((m) => ({ default: m.FundraiserNotFound })),
);
// The formats the album downloads in (issue 27) load as the tracklist comes near.
const loadDownloadFormats = () => import('../../ui/download-formats-list');
const DownloadFormatsList = lazy(() => loadDownloadFormats().then((m) => ({ default: m.DownloadFormatsList })));

/** The fundraiser page, /projects/{projectSlugOrId} (spec part 2 section 2, 'Fundraiser detail page'). */
export function FundraiserPage() {
  const { projectSlugOrId = '' } = useParams();
  return <FundraiserLoader key={projectSlugOrId} slugOrId={projectSlugOrId} />;
}

function FundraiserLoader({ slugOrId }: { slugOrId: string }) {
  const queryClient = useQueryClient();
  const query = useQuery({
    ...fundraiserQueryOptions(slugOrId),
    // Arriving from the numeric path (or a list that loaded this fundraiser by id), the page paints
    // at once from what is cached while the slug's own answer arrives.
    placeholderData: () =>
      queryClient
        .getQueriesData<Fundraiser>({ queryKey: fundraiserKeys.details() })
        .map(([, data]) => data)
        .find((data) => data !== undefined && data.urlSlug === slugOrId),
  });
  const notFound = isNotFound(query.error);
  usePageTitle(query.data ? fundraiserTitle(query.data) : notFound ? 'Fundraiser not found' : 'Fundraiser');

  // The fundraiser's own address: a numeric id, or a slug it had before a rename (an invite link
  // copied from a draft), is replaced by its current slug once it is known.
  if (query.data?.urlSlug && query.data.urlSlug !== slugOrId) {
    return <Navigate to={fundraiserPath(query.data)} replace />;
  }
  if (query.isPending) return <Spinner label="Loading fundraiser" />;
  if (notFound) {
    return (
      <Suspense fallback={<Spinner label="Loading fundraiser" />}>
        <FundraiserNotFound />
      </Suspense>
    );
  }
  if (query.isError) {
    return (
      <div className="page narrow">
        <LoadFailure error={query.error} retry={query.refetch}>
          <Alert tone="error">Something went wrong!</Alert>
        </LoadFailure>
      </div>
    );
  }
  return <FundraiserDetail fundraiser={query.data} />;
}

function FundraiserDetail({ fundraiser }: { fundraiser: Fundraiser }) {
  const user = useUser();
  const isAdmin = Boolean(user?.isAdmin);
  const navigate = useNavigate();
  const [open, setOpen] = useState<'publish' | 'delete' | 'share' | null>(null);
  const publishWanted = useHasBeenTrue(open === 'publish');
  const deleteWanted = useHasBeenTrue(open === 'delete');
  const shareWanted = useHasBeenTrue(open === 'share');
  const shareButton = useRef<HTMLButtonElement>(null);
  const isDraft = fundraiser.status === 'DRAFT';
  const editPath = `/fundraisers/user/${fundraiser.id}/edit`;
  const website = safeWebsite(fundraiser.supportedOrgWebsite);
  const aboutId = useId();
  const tracksId = useId();
  const previewId = useId();
  const title = fundraiserTitle(fundraiser);

  return (
    <div className="page stack fundraiser-page">
      {/* Only its owner and admins are shown a draft, so whoever sees this banner may publish it. */}
      {isDraft && (
        <Alert tone="warning" title="status: Draft">
          <p>Only its owner and the site's admins can see this fundraiser until it is published.</p>
          <div className="actions fundraiser-draft-actions">
            <Suspense
              fallback={
                <button type="button" className="button button-primary" disabled>
                  Publish
                </button>
              }
            >
              <PublishButton fundraiser={fundraiser} onClick={() => setOpen('publish')} />
            </Suspense>
            <Link className="button button-secondary" to={editPath}>
              Edit
            </Link>
          </div>
        </Alert>
      )}

      <div className="fundraiser-hero">
        <UploadedPicture
          className="fundraiser-cover"
          uploadId={fundraiser.albumCover}
          alt={`Album cover of ${title}`}
          sizes={pictureSizes.fundraiserCover}
          priority
        />
        <div className="fundraiser-summary">
          <div className="page-heading">
            <h1>{title}</h1>
            {/* Its owner (and admins) manage it from here: donors, the invite link, editing. */}
            {fundraiser.canManage && !isDraft && (
              <Link className="button button-secondary" to={`/fundraisers/user/${fundraiser.id}`}>
                Manage fundraiser
              </Link>
            )}
            {isAdmin && (
              <Suspense
                fallback={
                  <button type="button" className="button button-secondary" disabled>
                    Admin menu<span aria-hidden="true"> ▾</span>
                  </button>
                }
              >
                <FundraiserAdminMenu
                  fundraiser={fundraiser}
                  editPath={editPath}
                  onPublish={() => setOpen('publish')}
                  onDelete={() => setOpen('delete')}
                />
              </Suspense>
            )}
          </div>
          <p className="fundraiser-artist">
            by <Link to={artistPath(fundraiser.artist)}>{fundraiser.artist.name}</Link>
          </p>
          <p className="fundraiser-charity">
            <span>Supporting </span>
            {website ? (
              <a href={website} target="_blank" rel="noopener noreferrer">
                {fundraiser.supportedOrg}
                <span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            ) : (
              <strong>{fundraiser.supportedOrg}</strong>
            )}
            <span className="fundraiser-ein"> (EIN {fundraiser.supportedOrgEin})</span>
            {!isDraft && (
              <>
                {' · '}
                <Link className="fundraiser-ledger-link" to={ledgerPath(fundraiser.supportedOrgEin)}>
                  See where the money goes
                </Link>
              </>
            )}
          </p>

          {fundraiser.previewTrackPreview && (
            <figure className="fundraiser-preview">
              <figcaption id={previewId}>
                <span className="fundraiser-preview-label">Preview</span> {fundraiser.previewTrackName || title}
              </figcaption>
              <audio
                controls
                // Fetched on play only: a page view is not a preview play (issue 29), and the page saves the bytes.
                preload="none"
                src={fundraiser.previewTrackPreview}
                aria-labelledby={previewId}
                // One sound at a time: the preview pauses the music player (and the player, when it
                // starts, pauses the preview).
                onPlay={pauseThePlayer}
              >
                <a href={fundraiser.previewTrackPreview}>Listen to the preview</a>
              </audio>
            </figure>
          )}

          <DonationStats fundraiser={fundraiser} shareButton={shareButton} onShare={() => setOpen('share')} />
        </div>
      </div>

      <div className="fundraiser-content">
        {/* The music first on a phone; beside the text on a desktop. */}
        {fundraiser.tracksList.length > 0 && (
          <section className="card fundraiser-tracks" aria-labelledby={tracksId}>
            <h2 id={tracksId}>Tracklist</h2>
            <ol className="tracklist">
              {fundraiser.tracksList.map((track) => (
                <TrackItem key={track.id} track={track} />
              ))}
            </ol>
            <WhenNear
              load={loadDownloadFormats}
              placeholder={<div className="fundraiser-formats-placeholder" aria-hidden="true" />}
            >
              <DownloadFormatsList fundraiserId={fundraiser.id} />
            </WhenNear>
          </section>
        )}
        <section className="fundraiser-about" aria-labelledby={aboutId}>
          <h2 id={aboutId}>About this album</h2>
          <Description text={fundraiser.description} />
          <Video fundraiser={fundraiser} />
        </section>
      </div>

      <Suspense fallback={null}>
        {publishWanted && (
          <PublishFundraiserDialog fundraiser={fundraiser} open={open === 'publish'} onClose={() => setOpen(null)} />
        )}
        {deleteWanted && (
          <DeleteFundraiserDialog
            fundraiser={fundraiser}
            open={open === 'delete'}
            onClose={() => setOpen(null)}
            onDeleted={() => navigate('/browse')}
          />
        )}
        {shareWanted && (
          <ShareDialog
            fundraiser={fundraiser}
            open={open === 'share'}
            onOpenChange={(next) => setOpen(next ? 'share' : null)}
            trigger={shareButton}
          />
        )}
      </Suspense>
    </div>
  );
}

/** Raised, goal (with its bar), count and minimum (spec part 2 section 2). */
function DonationStats({
  fundraiser,
  shareButton,
  onShare,
}: {
  fundraiser: Fundraiser;
  shareButton: RefObject<HTMLButtonElement | null>;
  onShare: () => void;
}) {
  const raised = fundraiser.totalRaised ?? 0;
  const goal = fundraiser.donationGoal ?? fundraiser.fundraisingGoalCents ?? 0;
  const headingId = useId();
  const donations = fundraiser.donationCount;
  return (
    <section className="card fundraiser-stats" aria-labelledby={headingId}>
      <h2 id={headingId} className="visually-hidden">
        Donations
      </h2>
      <p className="fundraiser-raised">
        <strong>{formatCents(raised)}</strong> raised
        {goal > 0 && <span className="muted"> of a {formatCents(goal)} goal</span>}
      </p>
      {goal > 0 && <GoalBar raisedCents={raised} goalCents={goal} />}
      <dl className="fundraiser-stats-list">
        <div>
          <dt>Donations</dt>
          <dd>{formatCount(donations)}</dd>
        </div>
        <div>
          <dt>Minimum donation</dt>
          <dd>{formatCents(fundraiser.minimumDonation)}</dd>
        </div>
      </dl>
      {fundraiser.status === 'PUBLISHED' ? (
        <div className="fundraiser-donate-actions">
          <Link
            className="button button-primary button-block fundraiser-donate"
            to={`${fundraiserPath(fundraiser)}/donate`}
          >
            Donate
          </Link>
          {/* Beside Donate: passing the fundraiser on is the other way a fan can help. Written out
              here rather than as share-button.tsx, which the manage page shares: a chunk of its
              own would cost this landing page a request and most of a kilobyte (issue 13). */}
          <button
            ref={shareButton}
            type="button"
            className="button button-secondary"
            aria-haspopup="dialog"
            onPointerEnter={() => void loadShareDialog()}
            onFocus={() => void loadShareDialog()}
            onClick={onShare}
          >
            Share
          </button>
        </div>
      ) : (
        <p className="fundraiser-donate-note">Donations open once this fundraiser is published.</p>
      )}
    </section>
  );
}

/** Paragraphs as written: blank lines split them, single line breaks stay (CSS pre-line). */
function Description({ text }: { text: string }) {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
  if (paragraphs.length === 0) return null;
  return (
    <div className="fundraiser-description">
      {paragraphs.map((paragraph, index) => (
        <p key={index}>{paragraph}</p>
      ))}
    </div>
  );
}

/** The optional YouTube or Vimeo embed: only the code is stored, the address is ours (spec part 2 s5). */
function Video({ fundraiser }: { fundraiser: Fundraiser }) {
  const youtube = fundraiser.youtubeLink?.trim();
  const vimeo = fundraiser.vimeoLink?.trim();
  const video = youtube
    ? { src: `${VIDEO_EMBED_ORIGINS.youtube}/embed/${encodeURIComponent(youtube)}`, site: 'YouTube' }
    : vimeo
      ? { src: `${VIDEO_EMBED_ORIGINS.vimeo}/video/${encodeURIComponent(vimeo)}`, site: 'Vimeo' }
      : null;
  if (!video) return null;
  return (
    <div className="fundraiser-video">
      <iframe
        src={video.src}
        title={`${fundraiserTitle(fundraiser)}: video on ${video.site}`}
        loading="lazy"
        // Fullscreen by the older attribute alone, as YouTube's own embed code grants it, so browsers
        // without `allow="fullscreen"` get it too; naming it in both makes Chromium warn on every page.
        allow="autoplay; encrypted-media; picture-in-picture"
        allowFullScreen
        // YouTube refuses to play embeds that send no referrer at all.
        referrerPolicy="strict-origin-when-cross-origin"
      />
    </div>
  );
}

function TrackItem({ track }: { track: FundraiserTrack }) {
  const seconds = track.durationSeconds;
  return (
    <li className="track">
      <span className="track-name">{track.name}</span>
      {seconds !== null && seconds > 0 && (
        <span className="track-duration">
          <span className="visually-hidden">Duration </span>
          <time dateTime={isoDuration(seconds)}>{formatPlaybackTime(seconds)}</time>
        </span>
      )}
    </li>
  );
}
