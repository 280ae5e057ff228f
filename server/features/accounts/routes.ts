import { clientIpOf } from '../../http/request-context';
import { Hono } from 'hono';
import { serverMessages } from '../../../shared/api';
import { okSchema } from '../../../shared/answers/api';
import {
  changeEmailSchema,
  deleteAccountSchema,
  loginSchema,
  newPasswordSchema,
  passwordResetEmailSchema,
  passwordResetSchema,
  registerSchema,
  resetTokenField,
  updateProfileSchema,
  verifyEmailSchema,
} from '../../../shared/schemas/accounts';
import type { AppEnv } from '../../http/context';
import { notFound } from '../../errors';
import { siteUrlForEmails } from '../../http/site-url';
import { endSession, requireSession, startSession } from '../../http/session';
import { formBody, jsonBody } from '../../http/validation';
import * as accounts from './service';

const ok = okSchema.parse({ ok: true });

// Spec part 1 section 7: the account calls. Thin: parse, call the service, answer.
export const accountRoutes = new Hono<AppEnv>()
  .get('/user', (c) => {
    const session = requireSession(c);
    return c.json(accounts.toPublicUser(session.user));
  })
  .post('/login', async (c) => {
    const input = await formBody(c, loginSchema);
    const user = await accounts.login(c.get('deps'), input, clientIpOf(c));
    startSession(c, user.id);
    return c.json(accounts.toPublicUser(user));
  })
  .post('/logout', (c) => {
    endSession(c);
    return c.json(ok);
  })
  .post('/register', async (c) => {
    const input = await jsonBody(c, registerSchema);
    const user = await accounts.register(c.get('deps'), input, clientIpOf(c));
    startSession(c, user.id);
    return c.json(accounts.toPublicUser(user), 201);
  })
  .post('/verify-email', async (c) => {
    const session = requireSession(c);
    const { verificationCode } = await jsonBody(c, verifyEmailSchema);
    const user = accounts.verifyEmail(c.get('deps'), session.user, verificationCode);
    return c.json(accounts.toPublicUser(user));
  })
  .post('/send-email-verification', async (c) => {
    const session = requireSession(c);
    await accounts.resendVerificationCode(c.get('deps'), session.user);
    return c.json(ok);
  })
  .post('/password-reset-email', async (c) => {
    const { email } = await jsonBody(c, passwordResetEmailSchema);
    const deps = c.get('deps');
    accounts.requestPasswordReset(deps, email, clientIpOf(c), siteUrlForEmails(c));
    return c.json(ok);
  })
  .post('/password-reset', async (c) => {
    const { password, resetToken } = await jsonBody(c, passwordResetSchema);
    if (!resetToken) throw notFound(serverMessages.invalidResetToken);
    await accounts.resetPassword(c.get('deps'), resetToken, password);
    return c.json(ok);
  })
  .get('/token-user/:token', (c) => {
    const token = resetTokenField.safeParse(c.req.param('token'));
    if (!token.success) throw notFound(serverMessages.invalidResetToken);
    return c.json(accounts.findResetTokenUser(c.get('deps'), token.data));
  })
  .post('/user/password', async (c) => {
    const session = requireSession(c);
    const { password } = await jsonBody(c, newPasswordSchema);
    await accounts.changePassword(c.get('deps'), session, password);
    return c.json(ok);
  })
  // The account page (issue 9): name, email address, deleting the account.
  .patch('/user', async (c) => {
    const session = requireSession(c);
    const input = await jsonBody(c, updateProfileSchema);
    return c.json(accounts.toPublicUser(accounts.updateProfile(c.get('deps'), session, input)));
  })
  .get('/user/email', (c) => {
    const session = requireSession(c);
    return c.json(accounts.pendingEmailChange(c.get('deps'), session));
  })
  .post('/user/email', async (c) => {
    const session = requireSession(c);
    const input = await jsonBody(c, changeEmailSchema);
    return c.json(await accounts.requestEmailChange(c.get('deps'), session, input));
  })
  .post('/user/email/verify', async (c) => {
    const session = requireSession(c);
    const { verificationCode } = await jsonBody(c, verifyEmailSchema);
    return c.json(accounts.toPublicUser(accounts.confirmEmailChange(c.get('deps'), session, verificationCode)));
  })
  .delete('/user/email', (c) => {
    const session = requireSession(c);
    return c.json(accounts.cancelEmailChange(c.get('deps'), session));
  })
  .delete('/user', async (c) => {
    const session = requireSession(c);
    const { password } = await jsonBody(c, deleteAccountSchema);
    await accounts.deleteAccount(c.get('deps'), session, password);
    endSession(c);
    return c.json(ok);
  });
