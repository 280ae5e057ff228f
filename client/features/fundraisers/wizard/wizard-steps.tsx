import { Link } from 'react-router';
import type { User } from '../../../../shared/answers/accounts';
import type { WizardData } from './wizard-store';

// The wizard's steps and the order they come in (spec part 2 sections 2 and 4).

export const WIZARD_STEPS = [
  { path: 'signup', label: 'The basics' },
  { path: 'verify-email', label: 'Verify email address' },
  { path: 'artist', label: 'About you or your band' },
  { path: 'charity', label: 'Choose a charity' },
  { path: 'details', label: 'Set up your fundraiser' },
  { path: 'music', label: 'Add your music tracks' },
] as const;

export type WizardStep = (typeof WIZARD_STEPS)[number];
export type StepPath = WizardStep['path'];

export const WIZARD_BASE = '/fundraisers/new';

/** Sign-up and verification happen once: done, they cannot be visited again. */
const ONCE_ONLY: readonly StepPath[] = ['signup', 'verify-email'];

/**
 * The steps this visitor goes through: sign-up only when logged out, verification only when the
 * email is not verified — or when this run began with them, so they stay in the list, done.
 */
export function applicableSteps(user: User | null, data: WizardData): WizardStep[] {
  return WIZARD_STEPS.filter((step) => {
    if (step.path === 'signup') return !user || data.hadSignup;
    if (step.path === 'verify-email') return !user?.isEmailVerified || data.hadVerify || data.hadSignup;
    return true;
  });
}

function isDone(path: StepPath, user: User | null, data: WizardData): boolean {
  switch (path) {
    case 'signup':
      return user !== null;
    case 'verify-email':
      return Boolean(user?.isEmailVerified);
    case 'artist':
      return data.artistId !== null;
    case 'charity':
      return data.charity !== null && data.draftId !== null;
    case 'details':
      return data.details !== null;
    case 'music':
      return false;
  }
}

/** The first step not done yet: where the wizard starts, and as far as one may go ahead. */
export function firstOpenStep(steps: WizardStep[], user: User | null, data: WizardData): WizardStep {
  return steps.find((step) => !isDone(step.path, user, data)) ?? steps[steps.length - 1]!;
}

/** Earlier steps may be visited again, except sign-up and verification. */
export function canVisit(steps: WizardStep[], target: StepPath, open: WizardStep): boolean {
  const targetIndex = steps.findIndex((step) => step.path === target);
  const openIndex = steps.indexOf(open);
  if (targetIndex < 0) return false;
  if (targetIndex === openIndex) return true;
  return targetIndex < openIndex && !ONCE_ONLY.includes(target);
}

type StepIndicatorProps = { steps: WizardStep[]; current: WizardStep; open: WizardStep };

/** Where the user stands: done steps that may be revisited are links back. */
export function StepIndicator({ steps, current, open }: StepIndicatorProps) {
  const currentIndex = steps.indexOf(current);
  const openIndex = steps.indexOf(open);
  return (
    <nav className="wizard-steps" aria-label="Steps">
      <p className="wizard-steps-count">
        Step {currentIndex + 1} of {steps.length}
      </p>
      <ol>
        {steps.map((step, index) => {
          const state = index === currentIndex ? 'current' : index < openIndex ? 'done' : 'upcoming';
          const content = (
            <>
              <span className="wizard-step-mark" aria-hidden="true">
                {state === 'done' ? '✓' : index + 1}
              </span>
              <span className="wizard-step-label">
                {step.label}
                {state === 'done' && <span className="visually-hidden"> (done)</span>}
              </span>
            </>
          );
          return (
            <li key={step.path} className={`wizard-step wizard-step-${state}`}>
              {index !== currentIndex && canVisit(steps, step.path, open) ? (
                <Link to={`${WIZARD_BASE}/${step.path}`}>{content}</Link>
              ) : (
                <span aria-current={index === currentIndex ? 'step' : undefined}>{content}</span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
