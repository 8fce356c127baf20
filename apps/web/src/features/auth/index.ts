/** The auth feature's public face: other features and the pages import only this file. */
export { useAfterSignIn } from './api/auth-actions';
export {
  type AuthState,
  authKey,
  authQuery,
  fetchAuthState,
  isAccountBlocked,
  isLoggingOut,
  markAccountBlocked,
  markLoggingOut,
  useAuth,
  useNewAccountWelcome,
} from './api/auth-state';
export { useLogout } from './api/logout';
export { safeRedirect, signInKey, useSigningIn } from './api/sign-in-state';
export { AuthCard } from './components/auth-card';
export { VerifyEmailDone, VerifyEmailLink, VerifyEmailNotice } from './components/email-verification';
export { LoginForm } from './components/login-form';
export { ForgotPasswordForm, ResetPasswordForm } from './components/password-recovery';
export { PhoneVerification } from './components/phone-verification';
export { RegisterForm } from './components/register-form';
