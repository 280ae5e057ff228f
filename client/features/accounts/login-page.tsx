import { useState } from 'react';
import { useLocation } from 'react-router';
import { fromState } from '../../lib/return-to';
import { usePageTitle } from '../../lib/site';
import { ForgotPasswordForm } from './forgot-password-form';
import { LoginForm } from './login-form';

/** After a successful login the guest-only guard sends the user to `state.from` (default /). */
export function LoginPage() {
  usePageTitle('Login');
  const location = useLocation();
  const [view, setView] = useState<'login' | 'forgotpassword'>('login');
  return (
    <div className="page narrow auth-page">
      <div className="card auth-card">
        <h1>{view === 'login' ? 'Log in' : 'Forgot password'}</h1>
        {view === 'login' ? (
          <LoginForm onForgotPassword={() => setView('forgotpassword')} from={fromState(location)} />
        ) : (
          <ForgotPasswordForm onCancel={() => setView('login')} />
        )}
      </div>
    </div>
  );
}
