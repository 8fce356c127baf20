import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/browser';

// The browser's passkey answer as the routes' bodies have it. The document's objects take any further
// field (a browser may add one), which the library's interfaces cannot promise; plain copies can.

export const signInAnswer = (answer: AuthenticationResponseJSON) => ({
  ...answer,
  response: { ...answer.response },
  clientExtensionResults: { ...answer.clientExtensionResults },
});

export const registrationAnswer = (answer: RegistrationResponseJSON) => ({
  ...answer,
  response: { ...answer.response },
  clientExtensionResults: { ...answer.clientExtensionResults },
});
