/** The security feature's public face (issue 21): passkeys on the dashboard and at sign-in. */
export { PasskeySignIn } from './components/passkey-sign-in';
export { PasskeysSection } from './components/passkeys-section';
export { SecurityTab } from './components/security-tab';
