import { useLocation } from 'react-router';
import { fromState } from '../../lib/return-to';
import { usePageTitle } from '../../lib/site';
import { SignUpForm } from '../../ui/signup-form';

/** 'Create an account'; on success the guest-only guard goes on to /user/verify-email. */
export function SignUpPage() {
  usePageTitle('Create an account');
  const location = useLocation();
  return (
    <div className="page narrow auth-page">
      <div className="card auth-card">
        <h1>Create an account</h1>
        <SignUpForm loginFrom={fromState(location)} />
      </div>
    </div>
  );
}
