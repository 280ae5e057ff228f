import { useState } from 'react';
import { useOnline } from '../lib/use-online';
import type * as MenuCode from './download-track-menu';
import type { TrackDownloadProps, TrackDownloadTrigger } from './download-track-menu';
import { FileDownloadIcon } from './file-download-icon';
import { offlineReason } from './needs-network';
import './download.css';

// A track's own download (issue 27): a small button in its row opens the formats as a menu.
// The button is drawn with its row; the menu (Radix: keys, focus, typeahead) is made for a row
// when its button is first pressed, and stays. Made in every row as the page settled, ten rows'
// menus were one React commit of about 30 ms, the longest task of an album's page after its start
// (issue 24). Its code is fetched when a pointer or the focus reaches a button, so it is there
// by the time of the press; until it is, the pressed button stays as it is, and the menu opens
// as soon as it arrives.

type MenuModule = typeof MenuCode;

let menuModule: MenuModule | undefined;
let menuLoading: Promise<MenuModule> | undefined;

function loadMenu(): Promise<MenuModule> {
  menuLoading ??= import('./download-track-menu').then(
    (loaded) => (menuModule = loaded),
    (error: unknown) => {
      // A later press asks again (the network may be back).
      menuLoading = undefined;
      throw error;
    },
  );
  return menuLoading;
}

const fetchMenuAhead = () => void loadMenu().catch(() => undefined);

export function TrackDownloadButton(props: TrackDownloadProps) {
  const online = useOnline();
  /** Pressed, and how: by keys, the menu's first item takes the focus, as Radix's own trigger does. */
  const [pressed, setPressed] = useState<{ byKeys: boolean }>();
  const [loadFailed, setLoadFailed] = useState(false);
  const [, setMenuArrived] = useState(false);
  const trigger: TrackDownloadTrigger = {
    label: `Download “${props.target.name}”`,
    title: online
      ? loadFailed
        ? 'The formats could not be loaded. Please try again.'
        : 'Download this track'
      : offlineReason('download this track'),
    disabled: !online,
  };

  if (pressed && menuModule) {
    const { TrackDownloadMenu } = menuModule;
    return <TrackDownloadMenu {...props} trigger={trigger} openAtOnce focusFirstItem={pressed.byKeys} />;
  }

  const press = (byKeys: boolean) => {
    setPressed({ byKeys });
    setLoadFailed(false);
    if (!menuModule) {
      loadMenu().then(
        () => setMenuArrived(true),
        () => {
          setPressed(undefined);
          setLoadFailed(true);
        },
      );
    }
  };
  return (
    <button
      type="button"
      className="download-track-button"
      disabled={trigger.disabled}
      aria-label={trigger.label}
      title={trigger.title}
      aria-haspopup="menu"
      aria-expanded="false"
      aria-busy={pressed ? true : undefined}
      onPointerEnter={fetchMenuAhead}
      onFocus={fetchMenuAhead}
      // Enter and Space press a button with no pointer: a click whose detail is 0.
      onClick={(event) => press(event.detail === 0)}
      onKeyDown={(event) => {
        // Radix's trigger opens on ArrowDown too.
        if (event.key !== 'ArrowDown') return;
        event.preventDefault();
        press(true);
      }}
    >
      <FileDownloadIcon />
    </button>
  );
}
