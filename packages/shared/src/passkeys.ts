import { z } from 'zod';
import { okEnvelope } from './envelope';
import { idParam, requiredText, text } from './fields';

/** How long a passkey ceremony (its challenge) stays usable. */
export const PASSKEY_CHALLENGE_MINUTES = 5;
/** Passkeys one account may hold. */
export const PASSKEYS_PER_USER = 20;
export const PASSKEY_NAME_MAX = 60;

const passkeyRetry = 'This passkey answer is not valid. Please try again.';
/** A base64url field of a WebAuthn answer, as the browser's toJSON() writes it. */
const base64url = (max: number) =>
  text('passkey answer', { error: passkeyRetry })
    .max(max, passkeyRetry)
    .regex(/^[A-Za-z0-9_-]*={0,2}$/, passkeyRetry);

const clientExtensionResults = z.record(z.string(), z.unknown()).default({});
const authenticatorAttachment = z.enum(['platform', 'cross-platform']).optional();

/** navigator.credentials.create()'s answer, JSON-encoded (SimpleWebAuthn's RegistrationResponseJSON). */
export const passkeyRegistrationResponse = z.object(
  {
    id: base64url(1400).min(1, passkeyRetry),
    rawId: base64url(1400).min(1, passkeyRetry),
    type: z.literal('public-key', { error: passkeyRetry }),
    response: z.looseObject(
      {
        clientDataJSON: base64url(8192).min(1, passkeyRetry),
        attestationObject: base64url(65_536).min(1, passkeyRetry),
        transports: z.array(z.string().max(32)).max(10).optional(),
      },
      { error: passkeyRetry },
    ),
    clientExtensionResults,
    authenticatorAttachment,
  },
  { error: passkeyRetry },
);

/** navigator.credentials.get()'s answer, JSON-encoded (SimpleWebAuthn's AuthenticationResponseJSON). */
export const passkeyAuthenticationResponse = z.object(
  {
    id: base64url(1400).min(1, passkeyRetry),
    rawId: base64url(1400).min(1, passkeyRetry),
    type: z.literal('public-key', { error: passkeyRetry }),
    response: z.looseObject(
      {
        clientDataJSON: base64url(8192).min(1, passkeyRetry),
        authenticatorData: base64url(8192).min(1, passkeyRetry),
        // Post-quantum signatures (ML-DSA, which Chromium's authenticators may choose) run to about 6,200 characters.
        signature: base64url(8192).min(1, passkeyRetry),
        userHandle: base64url(256).optional(),
      },
      { error: passkeyRetry },
    ),
    clientExtensionResults,
    authenticatorAttachment,
  },
  { error: passkeyRetry },
);

export const passkeyName = requiredText('passkey name', PASSKEY_NAME_MAX);

/** POST /api/user/passkeys */
export const addPasskeyInput = z.object({ response: passkeyRegistrationResponse, name: passkeyName });
export type AddPasskeyInput = z.infer<typeof addPasskeyInput>;

/** PATCH /api/user/passkeys/{id} */
export const renamePasskeyInput = z.object({ name: passkeyName });
export type RenamePasskeyInput = z.infer<typeof renamePasskeyInput>;

/** POST /api/login/passkey */
export const passkeySignInInput = z.object({ response: passkeyAuthenticationResponse });
export type PasskeySignInInput = z.infer<typeof passkeySignInInput>;

export const passkeyParams = z.object({ id: idParam('passkey id') });

export const passkey = z.object({
  id: z.number().int(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type Passkey = z.infer<typeof passkey>;

/**
 * WebAuthn options for the browser (PublicKeyCredentialCreationOptionsJSON or
 * PublicKeyCredentialRequestOptionsJSON): handed to @simplewebauthn/browser as they are.
 */
export const passkeyOptions = z.looseObject({ challenge: z.string() });
export type PasskeyOptions = z.infer<typeof passkeyOptions>;

/** POST /api/user/passkeys answers the new passkey both as the payload and by name. */
export const addedPasskey = okEnvelope(passkey).extend({ message: z.string() });
export type AddedPasskey = z.infer<typeof addedPasskey>;
