import { useEffect, useState } from 'react';

// Copying a link or a code from a read-only field: the Share dialog's and the manage page's
// invite link. Where the clipboard is refused, the text is selected for the keyboard instead.

/** How long a confirmation ("Link copied") stays: it is feedback, not a new state of the page. */
const CONFIRMATION_MS = 4000;

export type CopyOutcome = 'idle' | 'copied' | 'select' | 'share-failed';

/** A copy's outcome, to be said in a live region; a confirmation fades, advice stays until the next try. */
export function useCopyOutcome() {
  const [outcome, setOutcome] = useState<CopyOutcome>('idle');
  useEffect(() => {
    if (outcome !== 'copied') return;
    const timer = setTimeout(() => setOutcome('idle'), CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [outcome]);
  return [outcome, setOutcome] as const;
}

/**
 * Copies `text`; where the clipboard is refused (no permission, an insecure origin, an old
 * browser) it selects the field's text instead, so the user copies it with the keyboard.
 */
export async function copyFrom(field: HTMLInputElement | HTMLTextAreaElement | null, text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    field?.focus();
    field?.select();
    return false;
  }
}
