import { Link } from 'react-router';
import { useUser } from '../../lib/session-store';
import { usePageTitle } from '../../lib/site';

// The steps of the creation wizard (spec part 2 section 2), with where this visitor stands.
const steps = [
  { label: 'The basics', text: 'Create your account.' },
  { label: 'Verify email address', text: 'Enter the code we email you.' },
  { label: 'About you or your band', text: 'Create your artist profile, or pick one you have.' },
  { label: 'Choose a charity', text: 'Find a registered US 501(c)(3) by name or EIN; set your goal and minimum.' },
  { label: 'Set up your fundraiser', text: 'Name, description, genres and an optional video.' },
  { label: 'Add your music tracks', text: 'Album cover, a preview track and up to 40 tracks.' },
] as const;

export function StartFundraiserPage() {
  usePageTitle('Start a fundraiser');
  const user = useUser();
  const done = !user ? 0 : user.isEmailVerified ? 2 : 1;
  const from = { from: '/fundraisers/new' };
  return (
    <div className="page narrow stack">
      <h1>Start a fundraiser</h1>
      <p className="lead">
        Release your album, EP or any original audio as a fundraiser for a charity you choose. Fans donate at least your
        minimum, the charity gets the money, and fans get your music.
      </p>
      <ol className="steps">
        {steps.map((step, index) => (
          <li
            key={step.label}
            className={index < done ? 'step step-done' : index === done ? 'step step-current' : 'step'}
          >
            <strong>{step.label}</strong>
            <span>{index < done ? 'Done' : step.text}</span>
          </li>
        ))}
      </ol>
      <div className="actions">
        {!user && (
          <>
            <Link className="button button-primary" to="/signup" state={from}>
              Create an account
            </Link>
            <Link className="button button-secondary" to="/login" state={from}>
              Log in
            </Link>
          </>
        )}
        {user && !user.isEmailVerified && (
          <Link className="button button-primary" to="/user/verify-email" state={from}>
            Verify your email
          </Link>
        )}
        {user?.isEmailVerified && (
          <Link className="button button-primary" to="/artists/new">
            Create your artist profile
          </Link>
        )}
      </div>
    </div>
  );
}
