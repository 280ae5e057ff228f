import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useLocation, useParams } from 'react-router';
import { fundraiserQueryOptions } from '../../../api/fundraisers';
import { useSessionSettled, useUser } from '../../../lib/session';
import { usePageTitle } from '../../../lib/site';
import { Alert } from '../../../ui/alert';
import { Dialog } from '../../../ui/dialog';
import { Spinner } from '../../../ui/spinner';
import { ArtistStep } from './artist-step';
import { CharityStep } from './charity-step';
import { DetailsStep } from './details-step';
import { MusicStep } from './music-step';
import { SignupStep } from './signup-step';
import { isDraftGone } from './use-save-draft';
import { VerifyEmailStep } from './verify-email-step';
import { useWizardData, useWizardStore } from './wizard-store';
import { applicableSteps, canVisit, firstOpenStep, StepIndicator, WIZARD_BASE, type StepPath } from './wizard-steps';
import '../fundraisers-form.css';

/**
 * The creation wizard at /fundraisers/new/<step> (spec part 2 sections 2 and 4). The URL names the
 * step; a step that does not apply, or lies beyond the first one not done yet, sends the user to
 * that first open step (so signing up or verifying moves the wizard on by itself).
 */
export function FundraiserWizardPage() {
  const user = useUser();
  const confirmed = useSessionSettled();
  const data = useWizardData(user);
  const notice = useWizardStore((state) => state.notice);
  const run = useWizardStore((state) => state.run);
  const restart = useWizardStore((state) => state.restart);
  const requested = useParams()['*'] ?? '';
  const { search } = useLocation();
  const steps = applicableSteps(user, data);
  const open = firstOpenStep(steps, user, data);
  const current = steps.find((step) => step.path === requested);
  usePageTitle(current ? `Create a fundraiser - ${current.label}` : 'Create a fundraiser');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const previous = useRef<StepPath | undefined>(undefined);
  const previousRun = useRef(run);
  const [confirmingStartOver, setConfirmingStartOver] = useState(false);

  // A draft id found in storage may be stale: the draft deleted, published or finished in another
  // tab since. It is checked once on arrival, and dropped unless it is still a draft this user may
  // change; otherwise every save would be refused and the wizard stuck. Drafts created during
  // this visit need no check.
  const [arrivalDraftId] = useState(() => useWizardStore.getState().draftId);
  const checkedId =
    user && !data.finished && data.draftId !== null && data.draftId === arrivalDraftId ? data.draftId : null;
  const draftCheck = useQuery({ ...fundraiserQueryOptions(String(checkedId ?? 0)), enabled: checkedId !== null });
  const draftGone =
    checkedId !== null &&
    ((draftCheck.isSuccess && !(draftCheck.data.status === 'DRAFT' && draftCheck.data.canManage)) ||
      (draftCheck.isError && isDraftGone(draftCheck.error)));
  useEffect(() => {
    if (draftGone && user) restart(user.email, 'draft-gone');
  }, [draftGone, user, restart]);

  // A new step is announced by moving focus to its heading (the page itself does not change); a
  // wizard that started again moves it to the notice saying why, when there is one.
  useEffect(() => {
    const stepChanged = previous.current !== undefined && current !== undefined && previous.current !== current.path;
    const restarted = previousRun.current !== run;
    previous.current = current?.path;
    previousRun.current = run;
    if (stepChanged || restarted) (noticeRef.current ?? headingRef.current)?.focus();
  }, [current, run]);

  // A finished run is cleared when the wizard is left, and on arrival should it still be there
  // (the tab was closed on the way out).
  useEffect(() => {
    const clearFinished = () => {
      if (useWizardStore.getState().finished) useWizardStore.getState().reset();
    };
    clearFinished();
    return clearFinished;
  }, []);

  if (data.finished) return <Spinner label="Opening your fundraiser" />;
  // Until the session is known a guest and a logged-in user cannot be told apart.
  if (!user && !confirmed) return <Spinner label="Checking your session" />;
  if (checkedId !== null && (draftCheck.isPending || draftGone)) return <Spinner label="Checking your draft" />;
  if (!current || !canVisit(steps, current.path, open)) {
    // The sign-up step reads ?email= (spec part 2 section 2): the query string goes along to it.
    return (
      <Navigate
        to={{ pathname: `${WIZARD_BASE}/${open.path}`, search: open.path === 'signup' ? search : '' }}
        replace
      />
    );
  }

  const hasAnswers =
    data.draftId !== null ||
    data.artistId !== null ||
    data.charity !== null ||
    data.details !== null ||
    data.music !== null;

  return (
    <div className="page narrow wizard">
      <h1 ref={headingRef} tabIndex={-1} className="wizard-title">
        <span className="wizard-kicker">
          Create a fundraiser<span className="visually-hidden">: </span>
        </span>
        {current.label}
      </h1>
      <StepIndicator steps={steps} current={current} open={open} />
      {notice === 'draft-gone' && (
        <div ref={noticeRef} tabIndex={-1} className="wizard-notice">
          <Alert tone="warning" title="Your draft is no longer available">
            <p>
              It was deleted, published or finished elsewhere, so the wizard has started again. Your fundraisers, drafts
              included, are listed in <Link to="/fundraisers/user">Your fundraisers</Link>.
            </p>
          </Alert>
        </div>
      )}
      <div key={run} className="wizard-body card">
        {current.path === 'signup' && <SignupStep />}
        {current.path === 'verify-email' && user && <VerifyEmailStep user={user} />}
        {current.path === 'artist' && user && <ArtistStep user={user} data={data} />}
        {current.path === 'charity' && user && <CharityStep user={user} data={data} />}
        {current.path === 'details' && user && <DetailsStep user={user} data={data} />}
        {current.path === 'music' && user && data.draftId !== null && (
          <MusicStep user={user} draftId={data.draftId} music={data.music} />
        )}
      </div>
      {user && hasAnswers && (
        <p className="wizard-start-over">
          <button type="button" className="link-button" onClick={() => setConfirmingStartOver(true)}>
            Start over
          </button>
        </p>
      )}
      {user && (
        <StartOverDialog
          open={confirmingStartOver}
          onClose={() => setConfirmingStartOver(false)}
          onConfirm={() => {
            setConfirmingStartOver(false);
            restart(user.email);
          }}
        />
      )}
    </div>
  );
}

/**
 * Asks before the wizard forgets its answers. The draft itself is not deleted: it stays among the
 * user's fundraisers, where it can be finished or deleted.
 */
function StartOverDialog({ open, onClose, onConfirm }: { open: boolean; onClose: () => void; onConfirm: () => void }) {
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()} title="Start over?" className="dialog-narrow">
      <div className="dialog-body stack">
        <p>
          The wizard forgets your answers and starts again from its first step. A draft it has already saved stays in
          Your fundraisers, where you can finish or delete it.
        </p>
        <div className="dialog-actions">
          <button type="button" className="button button-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="button button-primary" onClick={onConfirm}>
            Start over
          </button>
        </div>
      </div>
    </Dialog>
  );
}
