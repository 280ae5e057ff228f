import {
  type Coordinator,
  type CoordinatorMessage,
  createPlayerCoordinator,
  HEARTBEAT_INTERVAL_MS,
  type PlayerPort,
  type TabMessage,
} from './coordinator';
import type { PlayerCommand, PlayerState, SavedPlayer, TabId } from './player-logic';

// How a tab reaches the shared player state (DESIGN.md section 3). Where SharedWorker exists, the
// coordinator lives there. Where it does not (Chrome on Android until 2026), the tabs elect a leader
// with the Web Locks API; the leader runs the coordinator and the others talk to it over a
// BroadcastChannel, so the behaviour is the same. When the leader closes, the next tab in line
// takes over from its own copy of the state and asks the others to say hello again.

export type PlayerLink = {
  send: (command: PlayerCommand) => void;
  /** This tab is leaving (page hidden for good): let the coordinator know at once. */
  close: () => void;
  /** This tab stops taking part (its player changes hands: a guest's, then an account's): for good. */
  disconnect: () => void;
};

type Options = {
  tab: TabId;
  /** What this tab saved before a reload, offered to a coordinator that has no tracklist. */
  saved: () => SavedPlayer | undefined;
  onState: (state: PlayerState) => void;
};

const CHANNEL_NAME = 'soundcause-player';
const LEADER_LOCK = 'soundcause-player-leader';

export function connectPlayer(options: Options): PlayerLink {
  if (typeof SharedWorker !== 'undefined') return viaSharedWorker(options);
  if (typeof BroadcastChannel !== 'undefined' && typeof navigator !== 'undefined' && navigator.locks) {
    return viaBroadcastChannel(options);
  }
  return inThisTab(options);
}

/**
 * A player of this tab's own, which no other tab sees: a guest's, whose tracks are granted to
 * whoever holds this page (client/player/player-dock.tsx), not to the browser's session.
 */
export function connectLocalPlayer(options: Options): PlayerLink {
  return inThisTab(options);
}

/**
 * Keeps a coordinator aware of this tab: hello now and after a return from the back/forward cache.
 * Answers the way to stop.
 */
function keepAlive(post: (message: TabMessage) => void, hello: () => TabMessage) {
  post(hello());
  const ping = setInterval(() => post({ kind: 'ping' }), HEARTBEAT_INTERVAL_MS);
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted) post(hello());
  };
  window.addEventListener('pageshow', onPageShow);
  return () => {
    clearInterval(ping);
    window.removeEventListener('pageshow', onPageShow);
  };
}

function viaSharedWorker({ tab, saved, onState }: Options): PlayerLink {
  const worker = new SharedWorker(new URL('./worker.ts', import.meta.url), {
    type: 'module',
    name: 'soundcause-player',
  });
  const port = worker.port;
  const post = (message: TabMessage) => port.postMessage(message);
  port.onmessage = (event: MessageEvent<CoordinatorMessage>) => {
    if (event.data.kind === 'state') onState(event.data.state);
  };
  port.start();
  const stop = keepAlive(post, () => ({ kind: 'hello', tab, saved: saved() }));
  return {
    send: (command) => post({ kind: 'command', command }),
    close: () => post({ kind: 'bye' }),
    disconnect: () => {
      stop();
      post({ kind: 'bye' });
      port.close();
    },
  };
}

type Envelope =
  | { route: 'to-leader'; from: TabId; message: TabMessage }
  | { route: 'to-tab'; tab: TabId; message: CoordinatorMessage }
  | { route: 'leader-changed' };

function viaBroadcastChannel({ tab, saved, onState }: Options): PlayerLink {
  const channel = new BroadcastChannel(CHANNEL_NAME);
  let coordinator: Coordinator | null = null;
  /** This tab's own way into the coordinator, once it leads. */
  let local: ((message: TabMessage) => void) | null = null;
  const routes = new Map<TabId, (message: TabMessage) => void>();
  let lastState: PlayerState | undefined;
  const mirror = (state: PlayerState) => {
    lastState = state;
    onState(state);
  };
  /**
   * Commands given before any leader has answered this tab. With no other tab open, nobody leads
   * until this tab's own turn for the lock, which never comes at once: a Play sent over the channel
   * before then (one clicked before the player had started) would reach nobody. They wait for the
   * leader's first answer, or for this tab to lead.
   */
  let unanswered: TabMessage[] | null = [];
  const post = (message: TabMessage) => {
    if (local) local(message);
    else if (unanswered && message.kind === 'command') unanswered.push(message);
    else channel.postMessage({ route: 'to-leader', from: tab, message } satisfies Envelope);
  };
  const answered = () => {
    const waiting = unanswered ?? [];
    unanswered = null;
    for (const message of waiting) post(message);
  };
  const hello = (): TabMessage => ({ kind: 'hello', tab, saved: saved() });

  /** A port for another tab, made the first time it speaks to the leader. */
  const routeTo = (from: TabId): PlayerPort => ({
    postMessage: (message) => channel.postMessage({ route: 'to-tab', tab: from, message } satisfies Envelope),
    listen: (handler) => {
      routes.set(from, handler);
    },
  });

  channel.onmessage = (event: MessageEvent<Envelope>) => {
    const envelope = event.data;
    if (envelope.route === 'to-leader') {
      if (!coordinator) return;
      if (!routes.has(envelope.from)) coordinator.connect(routeTo(envelope.from));
      routes.get(envelope.from)?.(envelope.message);
    } else if (envelope.route === 'leader-changed') {
      post(hello());
    } else if (envelope.tab === tab && envelope.message.kind === 'state') {
      mirror(envelope.message.state);
      answered();
    }
  };

  // The lock is held for the life of the tab (or of this link); the next tab waiting for it
  // becomes the leader and carries on from its own copy of the state.
  const leaving = new AbortController();
  let stepDown = () => {};
  navigator.locks
    .request(LEADER_LOCK, { signal: leaving.signal }, () => {
      coordinator = createPlayerCoordinator({ initial: lastState });
      coordinator.connect({
        postMessage: (message) => mirror(message.state),
        listen: (handler) => {
          local = handler;
        },
      });
      post(hello());
      answered();
      channel.postMessage({ route: 'leader-changed' } satisfies Envelope);
      return new Promise<void>((resolve) => {
        stepDown = resolve;
      });
    })
    // Aborted while waiting in line: this link is gone.
    .catch(() => undefined);
  const stop = keepAlive(post, hello);
  return {
    send: (command) => post({ kind: 'command', command }),
    close: () => post({ kind: 'bye' }),
    disconnect: () => {
      stop();
      post({ kind: 'bye' });
      coordinator?.stop();
      coordinator = null;
      local = null;
      leaving.abort();
      stepDown();
      channel.close();
    },
  };
}

/** No way to reach other tabs: this tab keeps its own player. */
function inThisTab({ tab, saved, onState }: Options): PlayerLink {
  const coordinator = createPlayerCoordinator();
  let handler: ((message: TabMessage) => void) | null = null;
  coordinator.connect({
    postMessage: (message) => onState(message.state),
    listen: (listener) => {
      handler = listener;
    },
  });
  const post = (message: TabMessage) => handler?.(message);
  post({ kind: 'hello', tab, saved: saved() });
  return {
    send: (command) => post({ kind: 'command', command }),
    close: () => undefined,
    disconnect: () => {
      coordinator.stop();
      handler = null;
    },
  };
}
