import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useFlash } from '../lib/flash';
import { Alert } from '../ui/alert';

export function FlashMessage() {
  const { pathname } = useLocation();
  const { message, path, seen, markSeen, clear } = useFlash();
  useEffect(() => {
    if (!message) return;
    if (pathname === path) {
      if (!seen) markSeen();
    } else if (seen) {
      clear();
    }
  }, [pathname, message, path, seen, markSeen, clear]);
  if (!message || pathname !== path) return null;
  return (
    <div className="page flash">
      <Alert tone="success">
        <div className="flash-body">
          <span>{message}</span>
          <button type="button" className="button button-ghost" onClick={clear}>
            Dismiss
          </button>
        </div>
      </Alert>
    </div>
  );
}
