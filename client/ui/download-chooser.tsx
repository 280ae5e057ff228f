import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import type { DownloadFormatId } from '../../shared/download-formats';
import { useHasBeenTrue } from '../lib/use-has-been-true';
import { albumFormatsQueryOptions, type DownloadTarget } from './download-formats-api';
import { NetworkButton } from './needs-network';

// "Download as…" beside an album's download (issue 27): opens the formats dialog, loaded with its
// dialog library on first use (and fetched ahead as the pointer or the focus comes to the button).

const loadDialog = () => import('./download-dialog');
const FormatDialog = lazy(() => loadDialog().then((m) => ({ default: m.FormatDialog })));

export function DownloadAsButton({
  target,
  onChoose,
  className = 'button button-secondary',
}: {
  target: DownloadTarget;
  onChoose: (format: DownloadFormatId) => void;
  className?: string;
}) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const wanted = useHasBeenTrue(open);
  const prepare = () => {
    void loadDialog();
    void queryClient.prefetchQuery(albumFormatsQueryOptions(target.fundraiserId));
  };
  return (
    <>
      <NetworkButton
        action="download in another format"
        type="button"
        className={className}
        aria-haspopup="dialog"
        onPointerEnter={prepare}
        onFocus={prepare}
        onClick={() => setOpen(true)}
      >
        Download as…
      </NetworkButton>
      {wanted && (
        <Suspense fallback={null}>
          <FormatDialog
            open={open}
            onOpenChange={setOpen}
            target={target}
            onChoose={(format) => {
              setOpen(false);
              onChoose(format);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
