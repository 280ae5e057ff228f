import { useEffect, useState } from 'react';
import { useNavigation } from 'react-router';
import { ROUTE_LOADER_DELAY_MS } from '../../shared/constants';

/** A bar at the top when a route transition takes longer than 800 ms (spec part 1 section 2). */
export function TopLoader() {
  const busy = useNavigation().state !== 'idle';
  const [delayPassed, setDelayPassed] = useState(false);
  useEffect(() => {
    if (!busy) return;
    const timer = setTimeout(() => setDelayPassed(true), ROUTE_LOADER_DELAY_MS);
    return () => {
      clearTimeout(timer);
      setDelayPassed(false);
    };
  }, [busy]);
  if (!busy || !delayPassed) return null;
  return <div className="top-loader" role="progressbar" aria-label="Loading page" />;
}
