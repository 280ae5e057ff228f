import { Dialog } from '../../ui/dialog';
import { ForgotPasswordForm } from './forgot-password-form';
import { useLoginDialog } from './login-dialog-store';
import { LoginForm } from './login-form';

/** The login dialog with its two views; it opens on the login view every time. */
export function LoginDialog() {
  const { open, view, setView, close } = useLoginDialog();
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && close()}
      title={view === 'login' ? 'Log in' : 'Forgot password'}
      className="dialog-narrow"
    >
      {view === 'login' ? (
        <LoginForm onForgotPassword={() => setView('forgotpassword')} onCreateAccount={close} onSuccess={close} />
      ) : (
        <ForgotPasswordForm onCancel={() => setView('login')} />
      )}
    </Dialog>
  );
}
