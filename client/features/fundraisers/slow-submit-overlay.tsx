import { type RefObject, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { SLOW_SUBMIT_OVERLAY_MS } from '../../../shared/constants';

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
  // Where focus was when the submission started: the submit button, which loses it when it is
  // disabled (Chromium may drop it before any effect of the submission runs, so focus is followed
  // while idle and the last place kept when the submission starts).
  const returnFocusRef = useRef<Element | null>(null);
  useEffect(() => {
    if (active) return;
    returnFocusRef.current = document.activeElement;
    const follow = (event: FocusEvent) => {
      if (event.target instanceof Element) returnFocusRef.current = event.target;
    };
    document.addEventListener('focusin', follow);
    return () => document.removeEventListener('focusin', follow);
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
