/** What the browser's passkey ceremony gives back when signing in (or confirming it is you), as the tests stub it. */
export const passkeyAssertion = {
  id: 'cred',
  rawId: 'cred',
  type: 'public-key',
  response: { clientDataJSON: 'AA', authenticatorData: 'AA', signature: 'AA' },
  clientExtensionResults: {},
};
