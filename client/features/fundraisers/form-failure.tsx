import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
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

type SlowSubmitOverlayProps = {
  active: boolean;
  text: string;
  /** The share of the request body sent so far, for a form that uploads a file with it. */
  percent?: number;
  /** Offers 'Cancel upload' while given: only while the body is still being sent. */
  onCancel?: () => void;
};

/**
 * 'Creating your fundraiser...' / 'Updating your fundraiser...': shown only when a submission takes
 * longer than a second (spec part 2 sections 2 and 4), so quick saves do not flash it.
 *
 * While it shows, the rest of the page is inert (no Tab, click or screen-reader cursor reaches the
 * form underneath), so it lives in a layer of its own beside the app. Its live region stays mounted
 * the whole time and only receives its text when the overlay appears: a region that arrives with its
 * text already inside is often not announced.
 */
export function SlowSubmitOverlay({ active, text, percent, onCancel }: SlowSubmitOverlayProps) {
  const layerRef = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(false);
  // A finished submission hides it at once; the next one waits its second again.
  if (!active && shown) setShown(false);
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => setShown(true), SLOW_SUBMIT_OVERLAY_MS);
    return () => clearTimeout(timer);
  }, [active]);
  // Where focus was when the submission started: the disabled submit button is about to lose it.
  const returnFocusRef = useRef<Element | null>(null);
  useLayoutEffect(() => {
    if (active) returnFocusRef.current = document.activeElement;
  }, [active]);
  useInertOutside(layerRef, returnFocusRef, shown);

  return createPortal(
    <div ref={layerRef} className="submit-overlay-layer">
      <p className="visually-hidden" role="status">
        {shown ? `${text} Please do not leave this page!` : ''}
      </p>
      {shown && (
        <div className="submit-overlay">
          <div className="submit-overlay-card card">
            <span className="spinner" aria-hidden="true" />
            {/* Said by the live region above; hidden here so it is not read twice. */}
            <p aria-hidden="true">
              <strong>{text}</strong> Please do not leave this page!
            </p>
            {percent !== undefined && (
              <>
                <progress max={100} value={percent} aria-label="Upload progress">
                  {percent}%
                </progress>
                <p className="submit-overlay-percent" aria-hidden="true">
                  {percent}%
                </p>
              </>
            )}
            {onCancel && (
              <button type="button" className="button button-secondary" onClick={onCancel}>
                Cancel upload
              </button>
            )}
          </div>
        </div>
      )}
    </div>,
    document.body,
  );
}

/**
 * Makes every other child of <body> (the app, and anything else portalled there) inert while
 * `active`, and afterwards gives focus back to `returnFocusRef` if the inert page had dropped it.
 */
function useInertOutside(
  layerRef: RefObject<HTMLElement | null>,
  returnFocusRef: RefObject<Element | null>,
  active: boolean,
) {
  useEffect(() => {
    if (!active) return;
    const layer = layerRef.current;
    // Set when the submission started, which is before this shows.
    const previous = returnFocusRef.current;
    // Only those this made inert are released again.
    const made = Array.from(document.body.children).filter(
      (element): element is HTMLElement => element instanceof HTMLElement && element !== layer && !element.inert,
    );
    for (const element of made) element.inert = true;
    return () => {
      for (const element of made) element.inert = false;
      const focusLost = document.activeElement === null || document.activeElement === document.body;
      if (focusLost && previous instanceof HTMLElement && previous.isConnected) previous.focus();
    };
  }, [layerRef, returnFocusRef, active]);
}
