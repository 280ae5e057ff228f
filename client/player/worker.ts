import { createPlayerCoordinator, type PlayerPort, type TabMessage } from './coordinator';

// The player's SharedWorker (DESIGN.md section 3): one coordinator for every tab of the site. Audio
// cannot play in a worker, so this only holds the state and relays it; one tab makes the sound.

const coordinator = createPlayerCoordinator();

function messagePortAdapter(port: MessagePort): PlayerPort {
  return {
    postMessage: (message) => port.postMessage(message),
    listen: (handler) => {
      port.onmessage = (event: MessageEvent<TabMessage>) => handler(event.data);
    },
  };
}

type ConnectEvent = { ports: readonly MessagePort[] };
const scope = self as unknown as { onconnect: ((event: ConnectEvent) => void) | null };

scope.onconnect = (event) => {
  const port = event.ports[0];
  if (port) coordinator.connect(messagePortAdapter(port));
};
