import { useEffect, useState } from 'react';
import type { FormErrorItem } from '../../../shared/api';
import { SLOW_SUBMIT_OVERLAY_MS } from '../../../shared/constants';
import { ApiError } from '../../api/http';
import { useSite } from '../../lib/site';
import { MessageDialog } from '../../ui/dialog';

// How the wizard and the edit page explain a refused save (spec part 2 section 8): a 400 with
// field errors puts them on their fields; a 400 with a sentence shows that sentence; anything
// else asks the user to try again and names the contact address.

export type FormFailure =
  { kind: 'fields'; unmatched: string[] } | { kind: 'text'; message: string } | { kind: 'other' };

/** `putOnFields` sets the field errors it can and returns those that match no field. */
export function describeFailure(
  error: unknown,
  putOnFields: (formErrors: FormErrorItem[]) => FormErrorItem[],
): FormFailure {
  if (error instanceof ApiError && error.status === 400) {
    if (error.formErrors) {
      return { kind: 'fields', unmatched: putOnFields(error.formErrors).map((item) => item.message) };
    }
    return { kind: 'text', message: error.message };
  }
  return { kind: 'other' };
}

export function FormFailureDialog({
  title,
  failure,
  onClose,
}: {
  title: string;
  failure: FormFailure | null;
  onClose: () => void;
}) {
  const { contactEmail } = useSite();
  return (
    <MessageDialog open={failure !== null} onClose={onClose} title={title}>
      {failure?.kind === 'fields' && (
        <>
          <p>Please resolve the errors in the form and try again.</p>
          {failure.unmatched.length > 0 && (
            <ul>
              {failure.unmatched.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          )}
        </>
      )}
      {failure?.kind === 'text' && <p>{failure.message}</p>}
      {failure?.kind === 'other' && (
        <p>
          Please try submitting the form again. If the problem persists, please contact us at{' '}
          <a href={`mailto:${contactEmail}`}>{contactEmail}</a>.
        </p>
      )}
    </MessageDialog>
  );
}

/**
 * 'Creating your fundraiser...' / 'Updating your fundraiser...': shown only when a submission takes
 * longer than a second (spec part 2 sections 2 and 4), so quick saves do not flash it.
 */
export function SlowSubmitOverlay({ active, text, percent }: { active: boolean; text: string; percent?: number }) {
  return active ? <DelayedOverlay text={text} percent={percent} /> : null;
}

function DelayedOverlay({ text, percent }: { text: string; percent?: number }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), SLOW_SUBMIT_OVERLAY_MS);
    return () => clearTimeout(timer);
  }, []);
  if (!shown) return null;
  return (
    <div className="submit-overlay">
      <div className="submit-overlay-card card" role="status">
        <span className="spinner" aria-hidden="true" />
        <p>
          <strong>{text}</strong> Please do not leave this page!
        </p>
        {percent !== undefined && (
          <>
            <progress max={100} value={percent} aria-label="Upload progress">
              {percent}%
            </progress>
            <p className="submit-overlay-percent">{percent}%</p>
          </>
        )}
      </div>
    </div>
  );
}
