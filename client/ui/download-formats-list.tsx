import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { usePageSettled } from '../lib/page-settled';
import { albumFormatsQueryOptions } from './download-formats-api';
import { listOf, unavailableGroups } from './download-text';
import { formatBytes } from '../lib/format-bytes';
import './download.css';

// The fundraiser page's formats, before buying (issue 27): what the album downloads in and about
// how big it is in each; those it is not offered in are named once with the reason. Its code loads
// as the tracklist comes near (fundraiser-page.tsx) and its question waits for the page to settle,
// so the landing page's first load carries neither (issue 13).

export function DownloadFormatsList({ fundraiserId }: { fundraiserId: number }) {
  const headingId = useId();
  const settled = usePageSettled();
  const query = useQuery({ ...albumFormatsQueryOptions(fundraiserId), enabled: settled });
  // Nothing to say without the formats: the section leaves its room to the tracklist.
  if (query.isError) return null;
  const formats = query.data?.formats;
  const available = formats?.filter((format) => format.available) ?? [];
  return (
    <section className="download-formats" aria-labelledby={headingId} aria-busy={formats ? undefined : 'true'}>
      <h3 id={headingId}>Download formats</h3>
      {formats && (
        <>
          <ul className="download-formats-list">
            {available.map((format) => (
              <li key={format.id}>
                <span>{format.label}</span>
                {format.approxBytes > 0 && (
                  <span className="download-formats-size">{formatBytes(format.approxBytes)}</span>
                )}
              </li>
            ))}
          </ul>
          {unavailableGroups(formats).map((group) => (
            <p key={group.reason} className="download-formats-note">
              <strong>{listOf(group.labels)}:</strong> {group.reason}
            </p>
          ))}
          <p className="download-formats-note">Approximate sizes for the whole album; single tracks download too.</p>
        </>
      )}
    </section>
  );
}
