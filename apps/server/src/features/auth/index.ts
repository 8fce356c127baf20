export { authRoutes } from './auth.routes';
export { clearPendingSignIn, finishSignIn, pendingSignInStep } from './sign-in';
