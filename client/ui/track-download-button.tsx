import { lazy, Suspense, useState } from 'react';
import { useOnline } from '../lib/use-online';
import type { TrackDownloadProps, TrackDownloadTrigger } from './download-track-menu';
import { FileDownloadIcon } from './file-download-icon';
import { offlineReason } from './needs-network';
import './download.css';

// A track's own download (issue 27): a small button in its row opens the formats as a menu.
// The button is drawn with its row; the menu (Radix: keys, focus, typeahead) is made for a row
// when its button is first pressed, and stays. Made in every row as the page settled, ten rows'
// menus were one React commit of about 30 ms, the longest task of an album's page after its start
// (issue 24). Its code is fetched when a pointer or the focus reaches a button, so it is there
// by the time of the click.

const loadMenu = () => import('./download-track-menu');
const TrackDownloadMenu = lazy(() => loadMenu().then((m) => ({ default: m.TrackDownloadMenu })));

export function TrackDownloadButton(props: TrackDownloadProps) {
  const online = useOnline();
  const [pressed, setPressed] = useState(false);
  const trigger: TrackDownloadTrigger = {
    label: `Download “${props.target.name}”`,
    title: online ? 'Download this track' : offlineReason('download this track'),
    disabled: !online,
  };
  const plain = (
    <button
      type="button"
      className="download-track-button"
      disabled={trigger.disabled}
      aria-label={trigger.label}
      title={trigger.title}
      aria-haspopup="menu"
      aria-expanded="false"
      onPointerEnter={() => void loadMenu()}
      onFocus={() => void loadMenu()}
      onClick={() => setPressed(true)}
    >
      <FileDownloadIcon />
    </button>
  );
  if (!pressed) return plain;
  return (
    <Suspense fallback={plain}>
      <TrackDownloadMenu {...props} trigger={trigger} openAtOnce />
    </Suspense>
  );
}
