/** Account security's public face (issue 21): the Security tab (passkeys, two-factor sign-in, sessions), passkey sign-in, and the step-up dialog other features reuse. */

export { isStepUpError, securityKeys } from './api/security';
export { PasskeySignIn } from './components/passkey-sign-in';
export { PasskeysSection } from './components/passkeys-section';
export { SecurityTab } from './components/security-tab';
export { StepUpDialog, useStepUp } from './components/step-up-dialog';
