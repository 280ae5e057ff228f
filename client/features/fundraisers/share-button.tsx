import { lazy, Suspense, useRef, useState } from 'react';
import type { Fundraiser } from '../../../shared/answers/fundraisers';
import { useHasBeenTrue } from '../../lib/use-has-been-true';

// The Share button of the fundraiser page and the manage page (issue 28). The fundraiser page is a
// landing page with a JavaScript budget (scripts/bundle-budget.mjs): the dialog, its library and
// the embed code load on first use, fetched ahead as the pointer or the focus comes to the button.

const loadDialog = () => import('./share-dialog');
const ShareDialog = lazy(() => loadDialog().then((m) => ({ default: m.ShareDialog })));

export function ShareButton({
  fundraiser,
  className = 'button button-secondary',
}: {
  fundraiser: Fundraiser;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const wanted = useHasBeenTrue(open);
  const buttonRef = useRef<HTMLButtonElement>(null);
  // A draft has no public page to send anyone to, and no player to embed.
  if (fundraiser.status !== 'PUBLISHED') return null;
  const prepare = () => void loadDialog();
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className={className}
        aria-haspopup="dialog"
        onPointerEnter={prepare}
        onFocus={prepare}
        onClick={() => setOpen(true)}
      >
        Share
      </button>
      {wanted && (
        <Suspense fallback={null}>
          <ShareDialog fundraiser={fundraiser} open={open} onOpenChange={setOpen} trigger={buttonRef} />
        </Suspense>
      )}
    </>
  );
}
