import { type KeyboardEvent, useId, useState } from 'react';
import type { Fundraiser } from '../../../shared/answers/fundraisers';
import { fundraiserMessages } from '../../../shared/fundraiser-messages';

type PublishButtonProps = {
  fundraiser: Fundraiser;
  onClick: () => void;
  className?: string;
};

/**
 * 'Publish', or while the fundraiser is not publishable a disabled-looking button with a tooltip
 * saying why (spec part 2 section 2). It stays focusable (aria-disabled, not disabled) so keyboard
 * and screen-reader users reach the explanation too; Escape hides the tip (WCAG 1.4.13).
 */
export function PublishButton({ fundraiser, onClick, className = 'button button-primary' }: PublishButtonProps) {
  const tipId = useId();
  const [dismissed, setDismissed] = useState(false);
  if (fundraiser.isPublishable) {
    return (
      <button type="button" className={className} onClick={onClick}>
        Publish
      </button>
    );
  }
  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Escape') setDismissed(true);
  }
  return (
    <span
      className={dismissed ? 'tooltip-anchor tooltip-dismissed' : 'tooltip-anchor'}
      // Dismissed until the pointer or the focus comes back.
      onMouseEnter={() => setDismissed(false)}
      onBlur={() => setDismissed(false)}
    >
      <button
        type="button"
        className={`${className} button-inactive`}
        aria-disabled="true"
        aria-describedby={tipId}
        onKeyDown={onKeyDown}
      >
        Publish
      </button>
      <span className="tooltip" role="tooltip" id={tipId}>
        {fundraiserMessages.notPublishable}
      </span>
    </span>
  );
}
