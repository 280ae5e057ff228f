import { Link, useLocation, useNavigate } from 'react-router';
import { VerifyEmailForm } from '../../ui/verify-email-form';
import { fromState } from '../../lib/return-to';
import { reloadUser, useUser } from '../../lib/session';
import { usePageTitle } from '../../lib/site';

/** Email verification (spec part 1 section 2): the code form, resend states, then back to `from`. */
export function VerifyEmailPage() {
  usePageTitle('Verify your email');
  const user = useUser();
  if (!user) return null;
  return (
    <div className="page narrow auth-page">
      <div className="card auth-card stack">
        {user.isEmailVerified ? <Verified /> : <VerifyForm email={user.email} />}
      </div>
    </div>
  );
}

function Verified() {
  const from = fromState(useLocation());
  return (
    <>
      <h1>Email verified!</h1>
      <p>You can now create artists, fundraisers and more.</p>
      <div className="actions">
        <Link className="button button-primary" to={from ?? '/artists/new'}>
          {from ? 'Continue' : 'Create an artist'}
        </Link>
        <Link className="button button-secondary" to="/user">
          Account details
        </Link>
      </div>
    </>
  );
}

function VerifyForm({ email }: { email: string }) {
  const navigate = useNavigate();
  const from = fromState(useLocation());
  return (
    <>
      <h1>Verify your email</h1>
      <VerifyEmailForm
        email={email}
        onVerified={async () => {
          // Spec: after success the user is reloaded and the app returns to the saved route.
          await reloadUser();
          if (from) navigate(from, { replace: true });
        }}
      />
    </>
  );
}
