import {
  emptyPlayer,
  type PlayerCommand,
  playerReducer,
  type PlayerState,
  type SavedPlayer,
  type TabId,
} from './player-logic';

// The owner of the shared player state (DESIGN.md section 3): every tab connects a port, sends
// commands, and gets the whole state back after each change. It runs inside the SharedWorker, or
// in the leader tab where SharedWorker is missing. Pure apart from the timer it is given, so it is
// tested with mock ports and fake timers.

/** Tabs say they are alive this often; one silent for HEARTBEAT_TIMEOUT_MS is taken as gone. */
export const HEARTBEAT_INTERVAL_MS = 5_000;
// Generous, because a hidden tab's timers may be throttled; a tab dropped too early comes back
// with its next message anyway.
export const HEARTBEAT_TIMEOUT_MS = 30_000;

export type TabMessage =
  | { kind: 'hello'; tab: TabId; saved?: SavedPlayer }
  | { kind: 'command'; command: PlayerCommand }
  | { kind: 'ping' }
  | { kind: 'bye' };

export type CoordinatorMessage = { kind: 'state'; state: PlayerState };

/** The least of a MessagePort the coordinator needs (a MessagePort, or a BroadcastChannel route). */
export type PlayerPort = {
  postMessage: (message: CoordinatorMessage) => void;
  listen: (handler: (message: TabMessage) => void) => void;
};

type Connection = { port: PlayerPort; tab: TabId | null; lastSeen: number };

export type Coordinator = ReturnType<typeof createPlayerCoordinator>;

export function createPlayerCoordinator(
  options: { now?: () => number; initial?: PlayerState; setInterval?: typeof globalThis.setInterval } = {},
) {
  const now = options.now ?? Date.now;
  const every = options.setInterval ?? globalThis.setInterval;
  let state = options.initial ?? emptyPlayer;
  const connections = new Set<Connection>();
  const startedAt = now();
  const connectedTabs = () => [...connections].flatMap((connection) => (connection.tab ? [connection.tab] : []));

  const broadcast = () => {
    for (const connection of connections) send(connection, { kind: 'state', state });
  };

  const send = (connection: Connection, message: CoordinatorMessage) => {
    try {
      connection.port.postMessage(message);
    } catch {
      // A port whose tab is gone can throw: the heartbeat will drop it.
    }
  };

  const apply = (command: PlayerCommand) => {
    const next = playerReducer(state, command);
    if (next === state) return;
    state = next;
    broadcast();
  };

  const drop = (connection: Connection) => {
    connections.delete(connection);
    // Another port of the same tab (a reconnect) keeps the tab alive.
    const stillThere = [...connections].some((other) => other.tab === connection.tab);
    if (connection.tab && !stillThere) apply({ type: 'tab-gone', tab: connection.tab });
  };

  const receive = (connection: Connection, message: TabMessage) => {
    connection.lastSeen = now();
    if (!connections.has(connection) && message.kind !== 'bye') connections.add(connection);
    switch (message.kind) {
      case 'hello':
        connection.tab = message.tab;
        if (message.saved) apply({ type: 'restore', saved: message.saved });
        send(connection, { kind: 'state', state });
        return;
      case 'command':
        apply(message.command);
        return;
      case 'ping':
        return;
      case 'bye':
        drop(connection);
        return;
    }
  };

  const sweep = every(() => {
    const cutoff = now() - HEARTBEAT_TIMEOUT_MS;
    for (const connection of [...connections]) if (connection.lastSeen < cutoff) drop(connection);
    // A playing tab nobody is connected from (a coordinator that took over from a closed leader
    // tab, or a worker restarted under live tabs) is gone too, once its tabs had time to say hello.
    const playingTab = state.playingTab;
    if (playingTab && now() - startedAt > HEARTBEAT_TIMEOUT_MS && !connectedTabs().includes(playingTab)) {
      apply({ type: 'tab-gone', tab: playingTab });
    }
  }, HEARTBEAT_INTERVAL_MS);

  return {
    connect(port: PlayerPort) {
      const connection: Connection = { port, tab: null, lastSeen: now() };
      connections.add(connection);
      port.listen((message) => receive(connection, message));
    },
    state: () => state,
    connectedTabs,
    stop: () => clearInterval(sweep),
  };
}
