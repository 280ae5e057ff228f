import { type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { loadInIdleTurns } from '../lib/page-settled';

type WhenNearProps = {
  /** What loads once the spot comes near the screen (typically a React.lazy component). */
  children: ReactNode;
  /** The same size and look, drawn until then, so nothing moves when the real thing arrives. */
  placeholder: ReactNode;
  /** Loads the children's code: run in the idle turns once the visitor acts on the page (lib/page-settled.ts). */
  load: () => Promise<unknown>;
  className?: string;
};

/**
 * Renders `children` once its spot is within half a screen's height of the viewport, or once its
 * code has loaded in its turn after the visitor first acted on the page (lib/page-settled.ts), and
 * `placeholder` until then: code for what sits below the fold (the footer's form) stays off the
 * first page's path and does not compete with it for a phone's bandwidth (issue 13), yet is ready
 * when someone gets there.
 */
export function WhenNear({ children, placeholder, load, className }: WhenNearProps) {
  const spot = useRef<HTMLDivElement>(null);
  // Without IntersectionObserver (very old browsers) it simply loads at once.
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => loadInIdleTurns(() => load().then(() => setNear(true))), [load]);
  useEffect(() => {
    const element = spot.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: '50% 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return (
    <div ref={spot} className={className}>
      {near ? <Suspense fallback={placeholder}>{children}</Suspense> : placeholder}
    </div>
  );
}
