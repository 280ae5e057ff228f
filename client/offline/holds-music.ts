// Whether the offline store holds anyone's music, remembered outside it (localStorage), so a page
// can know without loading the store (Dexie) whether there is saved music to keep in step
// (client/app/layout.tsx). Set by a save as it starts (save-album.ts), and kept by the store's
// sync (offline-sync.tsx), which runs whenever it says yes and, in a quiet moment, once someone
// acts on the page.

const KEY = 'soundcause-offline-holds-music';

export function deviceHoldsSavedMusic(): boolean {
  try {
    return localStorage.getItem(KEY) !== null;
  } catch {
    return true; // Unknown: the sync runs, as it did before this was remembered.
  }
}

export function rememberDeviceHoldsMusic(holds: boolean) {
  try {
    if (holds) localStorage.setItem(KEY, '1');
    else localStorage.removeItem(KEY);
  } catch {
    // Without storage the sync waits for an act: nothing is lost, only a moment.
  }
}
