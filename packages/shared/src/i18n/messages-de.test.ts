import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  changePasswordInput,
  deleteAccountInput,
  forgotPasswordInput,
  loginInput,
  registerInput,
  resetPasswordInput,
  updateProfileInput,
  verifyPhoneInput,
} from '../auth';
import { contactInput } from '../settings';
import { KNOWN_MESSAGES, messageInGerman } from './messages-de';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** The text of every source file under a folder (tests left out). */
function sources(dir: string): string {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile() && f.name.endsWith('.ts') && !f.name.endsWith('.test.ts'))
    .map((f) => readFileSync(path.join(f.parentPath, f.name), 'utf8'))
    .join('\n');
}

/** The messages a schema gives for some input. */
const messagesOf = (schema: { safeParse(input: unknown): { error?: { issues: { message: string }[] } } }, input: unknown) =>
  schema.safeParse(input).error?.issues.map((i) => i.message) ?? [];

describe('the German of the contract messages (issue 18: German is complete)', () => {
  it('issue 18: every message a visitor meets in the sign-in, registration, password, profile and contact forms has its German', () => {
    const messages = [
      ...messagesOf(loginInput, {}),
      ...messagesOf(loginInput, { username: 'not-an-address', password: 'x' }),
      ...messagesOf(registerInput, {}),
      ...messagesOf(registerInput, { name: '', surname: '', email: '', phone: '12', password: 'password', passConfirm: 'other', terms_agreed: false }),
      ...messagesOf(registerInput, {
        name: 'A',
        surname: 'B',
        email: 'a@b.example',
        phone: '+351912345678',
        password: 'short',
        passConfirm: 'short',
        terms_agreed: true,
      }),
      ...messagesOf(changePasswordInput, {}),
      ...messagesOf(resetPasswordInput, {}),
      ...messagesOf(forgotPasswordInput, { email: 'nope' }),
      ...messagesOf(deleteAccountInput, { password: '' }),
      ...messagesOf(verifyPhoneInput, { code: '12' }),
      ...messagesOf(updateProfileInput, { name: '', surname: '', nickname: '!', hourly_rate: -1.001, about_me: 'x'.repeat(2001) }),
      ...messagesOf(contactInput, {}),
      ...messagesOf(contactInput, { name: 'A', email: 'a@b.example', message: 'short' }),
    ];
    expect(messages.length).toBeGreaterThan(25);
    const untranslated = [...new Set(messages)].filter((m) => messageInGerman(m) === undefined);
    expect(untranslated).toEqual([]);
  });

  it('puts the German field name into a templated message, and leaves a message it does not know alone', () => {
    expect(messageInGerman('The email field is required.')).toBe('Bitte fülle „E-Mail“ aus.');
    expect(messageInGerman('The subject may have at most 200 characters.')).toBe('„Betreff“ darf höchstens 200 Zeichen lang sein.');
    expect(messageInGerman('The password must be at least 8 characters long.')).toBe('Das Passwort muss mindestens 8 Zeichen lang sein.');
    expect(messageInGerman('The e-mail or password is incorrect.')).toBe('E-Mail-Adresse oder Passwort ist falsch.');
    expect(messageInGerman('Purchase: Citrus Waves')).toBe('Kauf: Citrus Waves');
    expect(messageInGerman('Funds added by card')).toBe('Guthaben per Karte aufgeladen');
    expect(messageInGerman('The frobnicator field is required.')).toBeUndefined();
    expect(messageInGerman('Something else went wrong.')).toBeUndefined();
  });

  it('knows only messages the code still writes, so a reworded message is noticed', () => {
    const code = sources('packages/shared/src') + sources('apps/server/src');
    const gone = KNOWN_MESSAGES.filter((m) => !code.includes(m));
    expect(gone).toEqual([]);
  });
});
