import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { PAGE_SIZE } from '../../../shared/constants';
import { formatCents } from '../../../shared/money';
import { normaliseEin } from '../../../shared/ein';
import type { Fundraiser, FundraiserTrack } from '../../../shared/answers/fundraisers';
import {
  fundraiserQueryOptions,
  fundraiserTransactionsQueryOptions,
  nonprofitQueryOptions,
} from '../../api/fundraisers';
import { useUser } from '../../lib/session';
import { usePageTitle } from '../../lib/site';
import { Alert } from '../../ui/alert';
import { fundraiserPath, fundraiserTitle } from '../../../shared/public-pages';
import { Pagination } from '../../ui/pagination';
import { pageFromUrl } from '../../../shared/api-paths';
import { Spinner } from '../../ui/spinner';
import { UploadedPicture } from '../../ui/uploaded-picture';
import { DeleteFundraiserDialog } from './delete-fundraiser-dialog';
import { displayWebsite, safeWebsite } from '../../lib/links';
import { FundraiserNotFound } from './fundraiser-not-found';
import { PublishControl } from './publish-fundraiser-dialog';
import { copyFrom, useCopyOutcome } from './copy-text';
import { ReachPanel } from './reach-panel';
import { ShareButton } from './share-button';
import './fundraisers.css';
import './music-status.css';
import { isNotFound } from '../../api/http';
import { isOfflineFailure, LoadFailure, OfflineNotice } from '../../ui/offline-notice';

/** How often the page asks again while the music is being processed. */
const PROCESSING_REFRESH_MS = 3000;

function isProcessing(fundraiser: Fundraiser): boolean {
  return (
    fundraiser.previewTrackStatus === 'processing' ||
    (!fundraiser.hasV1Tracks && fundraiser.tracksList.some((track) => track.status === 'processing'))
  );
}

/** The manage page, /fundraisers/user/{projectId} (spec part 2 section 2, 'Manage your fundraisers'). */
export function ManageFundraiserPage() {
  const { projectId = '' } = useParams();
  const valid = /^\d+$/.test(projectId);
  const query = useQuery({
    ...fundraiserQueryOptions(projectId),
    enabled: valid,
    // Tracks are transcoded in the background: look again until none is left processing (issue 5).
    refetchInterval: (current) =>
      current.state.data && isProcessing(current.state.data) ? PROCESSING_REFRESH_MS : false,
  });
  const notFound = !valid || isNotFound(query.error);
  usePageTitle(
    query.data ? `Manage ${fundraiserTitle(query.data)}` : notFound ? 'Fundraiser not found' : 'Manage fundraiser',
  );
  // Someone else's published fundraiser is public, but not theirs to manage.
  if (notFound || query.data?.canManage === false) return <FundraiserNotFound forManaging />;
  if (query.isPending) return <Spinner label="Loading project details" />;
  if (query.isError) {
    return (
      <div className="page narrow">
        <LoadFailure error={query.error} retry={query.refetch}>
          <Alert tone="error">Failed to load project details</Alert>
        </LoadFailure>
      </div>
    );
  }
  return <ManageFundraiser fundraiser={query.data} />;
}

function ManageFundraiser({ fundraiser }: { fundraiser: Fundraiser }) {
  const user = useUser();
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);
  const isDraft = fundraiser.status === 'DRAFT';
  // Non-admins edit only drafts (spec part 2 section 4).
  const canEdit = isDraft || Boolean(user?.isAdmin);
  const publicPath = fundraiserPath(fundraiser);

  return (
    <div className="page stack manage-fundraiser">
      <p className="manage-back">
        <Link to="/fundraisers/user">
          <span aria-hidden="true">← </span>Your fundraisers
        </Link>
      </p>
      <section className="card manage-summary" aria-label="Summary">
        <UploadedPicture
          className="manage-cover"
          uploadId={fundraiser.albumCover}
          alt=""
          sizes="(min-width: 1024px) 200px, 160px"
          eager
        />
        <div className="manage-summary-text">
          <h1>{fundraiserTitle(fundraiser)}</h1>
          <p className="manage-artist">{fundraiser.artist.name}</p>
          <p>
            <span className="visually-hidden">Status: </span>
            <span className={`chip ${isDraft ? 'chip-warning' : 'chip-success'}`}>
              {isDraft ? 'Draft' : 'Published'}
            </span>
          </p>
          <div className="actions">
            {isDraft && <PublishControl fundraiser={fundraiser} />}
            {canEdit && (
              <Link className="button button-secondary" to={`/fundraisers/user/${fundraiser.id}/edit`}>
                Edit fundraiser
              </Link>
            )}
            <Link className="button button-secondary" to={publicPath}>
              View fundraiser
            </Link>
            <ShareButton fundraiser={fundraiser} />
            <button type="button" className="button button-ghost manage-delete" onClick={() => setDeleting(true)}>
              Delete fundraiser
            </button>
          </div>
        </div>
      </section>

      <MusicPanel fundraiser={fundraiser} />

      <div className="manage-panels">
        <CharityPanel fundraiser={fundraiser} />
        <InvitePanel path={publicPath} />
      </div>

      {/* A draft has been nowhere yet: nothing to count. */}
      {!isDraft && <ReachPanel fundraiserId={fundraiser.id} />}

      <DonorTable fundraiser={fundraiser} />

      <DeleteFundraiserDialog
        fundraiser={fundraiser}
        open={deleting}
        onClose={() => setDeleting(false)}
        onDeleted={() => navigate('/fundraisers/user')}
      />
    </div>
  );
}

/**
 * Each track's processing state (issue 5: 'The owner sees each track's processing state on the
 * manage page'), with the reason when a file could not be used, so the owner knows to replace it.
 */
function MusicPanel({ fundraiser }: { fundraiser: Fundraiser }) {
  const headingId = useId();
  // Legacy v1 tracks are names only: their music is the album zip, nothing is processed.
  const tracks = fundraiser.hasV1Tracks ? [] : fundraiser.tracksList;
  const hasPreview = fundraiser.previewTrackStatus !== undefined;
  if (!hasPreview && tracks.length === 0) return null;
  const ready = tracks.filter((track) => track.status === 'ready').length;
  const failed =
    tracks.filter((track) => track.status === 'failed').length + (fundraiser.previewTrackStatus === 'failed' ? 1 : 0);
  const summary = isProcessing(fundraiser)
    ? `Processing your music: ${ready} of ${tracks.length} ${tracks.length === 1 ? 'track' : 'tracks'} ready.`
    : failed > 0
      ? `${failed} ${failed === 1 ? 'file' : 'files'} could not be processed. Please upload ${failed === 1 ? 'it' : 'them'} again.`
      : 'All tracks are ready to play.';
  return (
    <section className="card stack" aria-labelledby={headingId}>
      <h2 id={headingId}>Music</h2>
      <p role="status">{summary}</p>
      <ol className="music-status-list">
        {hasPreview && (
          <li>
            <span className="music-status-name">
              <span className="music-status-label">Preview track: </span>
              {fundraiser.previewTrackName || 'Preview'}
            </span>
            <TrackStatus status={fundraiser.previewTrackStatus} error={fundraiser.previewTrackError} />
          </li>
        )}
        {tracks.map((track, index) => (
          <li key={track.id}>
            <span className="music-status-name">
              <span className="music-status-label">{index + 1}. </span>
              {track.name}
            </span>
            <TrackStatus status={track.status} error={track.error} />
          </li>
        ))}
      </ol>
    </section>
  );
}

function TrackStatus({ status, error }: { status: FundraiserTrack['status'] | undefined; error: string | undefined }) {
  if (status === 'ready') return <span className="chip chip-success">Ready</span>;
  if (status === 'failed') {
    return <span className="music-status-error">Failed: {error ?? 'this file could not be processed.'}</span>;
  }
  return <span className="chip chip-warning">Processing…</span>;
}

function CharityPanel({ fundraiser }: { fundraiser: Fundraiser }) {
  const headingId = useId();
  const ein = normaliseEin(fundraiser.supportedOrgEin) ?? fundraiser.supportedOrgEin;
  // Extra detail only (the location): when the directory does not answer, the panel shows what the
  // fundraiser itself carries.
  const directory = useQuery(nonprofitQueryOptions(ein));
  const entry = directory.data?.nonprofit;
  const website = safeWebsite(fundraiser.supportedOrgWebsite ?? entry?.websiteUrl);
  return (
    <section className="card stack" aria-labelledby={headingId}>
      <h2 id={headingId}>Charity</h2>
      <dl className="details">
        <dt>Name</dt>
        <dd>{fundraiser.supportedOrg}</dd>
        <dt>EIN</dt>
        <dd>{fundraiser.supportedOrgEin}</dd>
        {website && (
          <>
            <dt>Website</dt>
            <dd>
              <a href={website} target="_blank" rel="noopener noreferrer">
                {displayWebsite(website)}
                <span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            </dd>
          </>
        )}
        {entry?.locationAddress && (
          <>
            <dt>Location</dt>
            <dd>{entry.locationAddress}</dd>
          </>
        )}
      </dl>
    </section>
  );
}

/** The public link to share, with a copy button (spec part 2 section 2). */
function InvitePanel({ path }: { path: string }) {
  const headingId = useId();
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useCopyOutcome();
  const link = `${window.location.origin}${path}`;

  async function copy() {
    setStatus((await copyFrom(inputRef.current, link)) ? 'copied' : 'select');
  }

  return (
    <section className="card stack" aria-labelledby={headingId}>
      <h2 id={headingId}>Send personalized invites</h2>
      <p>
        Share this link with friends and fans by email or message, with a few words of your own about why it matters.
      </p>
      <div className="field">
        <label htmlFor={inputId}>Public link</label>
        <div className="invite-row">
          <input
            ref={inputRef}
            id={inputId}
            className="invite-link"
            type="text"
            readOnly
            value={link}
            onFocus={(event) => event.currentTarget.select()}
          />
          <button type="button" className="button button-primary" onClick={() => void copy()}>
            Copy link
          </button>
          <span className="invite-status" role="status">
            {status === 'copied'
              ? 'Copied!'
              : status === 'select'
                ? 'Press Ctrl+C (or ⌘C) to copy the selected link.'
                : ''}
          </span>
        </div>
      </div>
    </section>
  );
}

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

function DonorTable({ fundraiser }: { fundraiser: Fundraiser }) {
  const headingId = useId();
  const [searchParams] = useSearchParams();
  const page = pageFromUrl(searchParams.get('page'));
  const donors = useQuery(fundraiserTransactionsQueryOptions(fundraiser.id, page));
  // The donor list fails silently (spec part 2 section 8): a failure reads as no donations. Not
  // offline, though: "no donations yet" would be untrue.
  const rows = donors.data?.results ?? [];
  const totalPages = Math.ceil((donors.data?.totalCount ?? 0) / PAGE_SIZE);
  return (
    <section className="stack" aria-labelledby={headingId}>
      <h2 id={headingId}>Donors</h2>
      {donors.isPending ? (
        <Spinner label="Loading donors" />
      ) : !donors.data && isOfflineFailure(donors.error) ? (
        <OfflineNotice onRetry={() => void donors.refetch()} />
      ) : rows.length === 0 ? (
        <p className="empty-state">No donations yet!</p>
      ) : (
        <>
          {/* Phones get one card per donor: five columns do not fit in 390 px. */}
          <ul className="donor-cards" aria-labelledby={headingId}>
            {rows.map((row, index) => (
              <li key={`${row.createdAt}-${index}`} className="donor-card">
                <p className="donor-card-head">
                  <span className="donor-card-name">{row.name}</span>
                  <span className="donor-card-amount">{formatCents(row.amountCents)}</span>
                </p>
                <p className="donor-card-line">{row.email}</p>
                <p className="donor-card-line">
                  <time dateTime={row.createdAt}>{dateFormat.format(new Date(row.createdAt))}</time>
                  {row.tipCents > 0 && <> · {formatCents(row.tipCents)} tip</>}
                </p>
              </li>
            ))}
          </ul>
          <div className="table-scroll donor-table-frame" tabIndex={0} role="region" aria-labelledby={headingId}>
            <table className="donor-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col" className="number">
                    Donation
                  </th>
                  <th scope="col" className="number">
                    Tip
                  </th>
                  <th scope="col">Date</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row, index) => (
                  <tr key={`${row.createdAt}-${index}`}>
                    <td>{row.name}</td>
                    <td>{row.email}</td>
                    <td className="number">{formatCents(row.amountCents)}</td>
                    <td className="number">{formatCents(row.tipCents)}</td>
                    <td>
                      <time dateTime={row.createdAt}>{dateFormat.format(new Date(row.createdAt))}</time>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <Pagination page={page} totalPages={totalPages} label="Donors" />
    </section>
  );
}
