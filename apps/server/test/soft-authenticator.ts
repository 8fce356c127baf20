/**
 * A software WebAuthn authenticator for tests: it answers registration and sign-in options the way
 * a browser with a platform authenticator would (ES256 key, attestation "none", user present and
 * verified), so the server's real verification runs without a browser.
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

/** The authenticator data flags of WebAuthn §6.1. */
const USER_PRESENT = 0x01;
const USER_VERIFIED = 0x04;
const ATTESTED_DATA = 0x40;

type Credential = { id: Buffer; privateKey: KeyObject; cosePublicKey: Uint8Array; userHandle: string; counter: number };

type RegistrationOptions = { challenge: string; user: { id: string } };
type SignInOptions = { challenge: string };

export type Overrides = { origin?: string; rpId?: string; counter?: number; userVerified?: boolean; type?: string };

export class SoftAuthenticator {
  private readonly credentials: Credential[] = [];
  constructor(
    readonly origin: string,
    readonly rpId: string,
  ) {}

  /** The last credential made, base64url (what the server stores as credential_id). */
  get credentialId(): string {
    const last = this.credentials.at(-1);
    if (!last) throw new Error('no credential yet');
    return b64url(last.id);
  }

  /** Sets the signature counter the next assertion starts from (it is increased before signing). */
  setCounter(value: number) {
    const last = this.credentials.at(-1);
    if (!last) throw new Error('no credential yet');
    last.counter = value;
  }

  private authenticatorData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** navigator.credentials.create(), as RegistrationResponseJSON. */
  register(options: RegistrationOptions, o: Overrides = {}) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cosePublicKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
        [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
      ]),
    );
    const id = randomBytes(32);
    const credentialLength = Buffer.alloc(2);
    credentialLength.writeUInt16BE(id.length);
    const attested = Buffer.concat([Buffer.alloc(16) /* aaguid */, credentialLength, id, Buffer.from(cosePublicKey)]);
    const flags = USER_PRESENT | ATTESTED_DATA | (o.userVerified === false ? 0 : USER_VERIFIED);
    const authData = this.authenticatorData(o.rpId ?? this.rpId, flags, 0, attested);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    this.credentials.push({ id, privateKey, cosePublicKey, userHandle: options.user.id, counter: 0 });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(this.clientData(o.type ?? 'webauthn.create', options.challenge, o.origin ?? this.origin)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
  }

  /** navigator.credentials.get() with the last credential made, as AuthenticationResponseJSON. */
  authenticate(options: SignInOptions, o: Overrides = {}) {
    const credential = this.credentials.at(-1);
    if (!credential) throw new Error('no credential yet');
    credential.counter = o.counter ?? credential.counter + 1;
    const flags = USER_PRESENT | (o.userVerified === false ? 0 : USER_VERIFIED);
    const authData = this.authenticatorData(o.rpId ?? this.rpId, flags, credential.counter);
    const clientDataJSON = this.clientData(o.type ?? 'webauthn.get', options.challenge, o.origin ?? this.origin);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
  }
}
