import { useEffect, useRef } from 'react';
import { Navigate, useLocation, useParams } from 'react-router';
import { useSessionStore } from '../../../lib/session-store';
import { usePageTitle } from '../../../lib/site';
import { Spinner } from '../../../ui/spinner';
import { ArtistStep } from './artist-step';
import { CharityStep } from './charity-step';
import { DetailsStep } from './details-step';
import { MusicStep } from './music-step';
import { SignupStep } from './signup-step';
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
  const user = useSessionStore((state) => state.user);
  const confirmed = useSessionStore((state) => state.confirmed);
  const data = useWizardData(user);
  const requested = useParams()['*'] ?? '';
  const { search } = useLocation();
  const steps = applicableSteps(user, data);
  const open = firstOpenStep(steps, user, data);
  const current = steps.find((step) => step.path === requested);
  usePageTitle(current ? `Create a fundraiser - ${current.label}` : 'Create a fundraiser');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const previous = useRef<StepPath | undefined>(undefined);

  // A new step is announced by moving focus to its heading (the page itself does not change).
  useEffect(() => {
    if (previous.current && current && previous.current !== current.path) headingRef.current?.focus();
    previous.current = current?.path;
  }, [current]);

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
  if (!current || !canVisit(steps, current.path, open)) {
    // The sign-up step reads ?email= (spec part 2 section 2): the query string goes along to it.
    return (
      <Navigate
        to={{ pathname: `${WIZARD_BASE}/${open.path}`, search: open.path === 'signup' ? search : '' }}
        replace
      />
    );
  }

  return (
    <div className="page narrow wizard">
      <h1 ref={headingRef} tabIndex={-1} className="wizard-title">
        <span className="wizard-kicker">
          Create a fundraiser<span className="visually-hidden">: </span>
        </span>
        {current.label}
      </h1>
      <StepIndicator steps={steps} current={current} open={open} />
      <div className="wizard-body card">
        {current.path === 'signup' && <SignupStep />}
        {current.path === 'verify-email' && user && <VerifyEmailStep user={user} />}
        {current.path === 'artist' && user && <ArtistStep user={user} data={data} />}
        {current.path === 'charity' && user && <CharityStep user={user} data={data} />}
        {current.path === 'details' && user && <DetailsStep user={user} data={data} />}
        {current.path === 'music' && user && data.draftId !== null && <MusicStep user={user} draftId={data.draftId} />}
      </div>
    </div>
  );
}
