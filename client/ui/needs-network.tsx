import { type AnchorHTMLAttributes, type ButtonHTMLAttributes, forwardRef, type ReactNode, useId } from 'react';
import { useOnline } from '../lib/use-online';
import './needs-network.css';

// Actions that only the server can carry out (issue 12: "pages that need the network say so
// plainly"). With no connection they are disabled and say why, beside them, instead of failing
// after a click or spinning. Every such action on the site goes through these, so the words and
// the behaviour are the same everywhere.

/** The reason an action waits for the connection, e.g. offlineReason('log in'). */
export const offlineReason = (action: string) => `You’re offline. Connect to the internet to ${action}.`;

/** Whether an action needing the network can run now, and the words and id that say why not. */
export function useNeedsNetwork(action: string): { offline: boolean; reason: string; reasonId: string } {
  const online = useOnline();
  return { offline: !online, reason: offlineReason(action), reasonId: useId() };
}

const describedBy = (...ids: (string | undefined)[]) => ids.filter(Boolean).join(' ') || undefined;

function Reason({ id, children }: { id: string; children: ReactNode }) {
  return (
    <span className="needs-network" id={id}>
      {children}
    </span>
  );
}

type NetworkButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  /** What the button does, to finish "Connect to the internet to …" (e.g. "log in"). */
  action: string;
};

/** A button whose action needs the network: with no connection it is disabled, the reason beside it. */
export const NetworkButton = forwardRef<HTMLButtonElement, NetworkButtonProps>(function NetworkButton(
  { action, disabled, 'aria-describedby': ariaDescribedBy, ...props },
  ref,
) {
  const { offline, reason, reasonId } = useNeedsNetwork(action);
  return (
    <>
      <button
        ref={ref}
        {...props}
        disabled={disabled || offline}
        aria-describedby={describedBy(ariaDescribedBy, offline ? reasonId : undefined)}
      />
      {offline && <Reason id={reasonId}>{reason}</Reason>}
    </>
  );
});

type NetworkLinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { action: string };

/**
 * A plain link to what only the server has (a file to download): with no connection it stays a
 * link, marked disabled and without an address, the reason beside it.
 */
export function NetworkLink({ action, href, download, children, ...props }: NetworkLinkProps) {
  const { offline, reason, reasonId } = useNeedsNetwork(action);
  if (!offline) {
    return (
      <a href={href} download={download} {...props}>
        {children}
      </a>
    );
  }
  return (
    <>
      <a
        {...props}
        role="link"
        aria-disabled="true"
        aria-describedby={describedBy(props['aria-describedby'], reasonId)}
      >
        {children}
      </a>
      <Reason id={reasonId}>{reason}</Reason>
    </>
  );
}

/** The reason alone, for a control that is not a button (a drop zone, a file picker's frame). */
export function NeedsNetworkNote({ action }: { action: string }) {
  const { offline, reason, reasonId } = useNeedsNetwork(action);
  return offline ? <Reason id={reasonId}>{reason}</Reason> : null;
}
