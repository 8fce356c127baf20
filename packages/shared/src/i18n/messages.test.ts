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
import { MESSAGES, messageText, msg, parseMessage } from '../messages';
import { contactInput } from '../settings';
import { de } from './de';
import { en } from './en';

/** The messages a schema gives for some input. */
const messagesOf = (schema: { safeParse(input: unknown): { error?: { issues: { message: string }[] } } }, input: unknown) =>
  schema.safeParse(input).error?.issues.map((i) => i.message) ?? [];

/** A coded message in German the way the web app puts it (apps/web/src/lib/i18n.ts), or undefined when a word is missing. */
function german(coded: string): string | undefined {
  const parsed = parseMessage(coded);
  if (!parsed) return undefined;
  const words = de as Record<string, string>;
  const template = words[`errors.${parsed.key}`];
  let complete = template !== undefined;
  const text = template?.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = parsed.values[name] ?? '';
    if (parseMessage(value)) {
      const inner = german(value);
      if (inner === undefined) complete = false;
      return inner ?? '';
    }
    if (name !== 'field') return value;
    const label = words[`errors.label.${value.replaceAll(' ', '_')}`];
    if (label === undefined) complete = false;
    return label ?? value;
  });
  return complete ? text : undefined;
}

describe('the contract messages by key (issue 31: no English is matched)', () => {
  it('issue 18: every message a visitor meets in the sign-in, registration, password, profile and contact forms has a key and its German', () => {
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
    const untranslated = [...new Set(messages)].filter((m) => german(m) === undefined);
    expect(untranslated).toEqual([]);
  });

  it('gives the English of a coded message, its values filled in, and leaves other text alone', () => {
    expect(messageText(msg('field.required', { field: 'email' }))).toBe('The email field is required.');
    expect(messageText(msg('field.too_long', { field: 'subject', max: 200 }))).toBe('The subject may have at most 200 characters.');
    expect(messageText(msg('validation.password_short', { min: 8 }))).toBe('The password must be at least 8 characters long.');
    expect(messageText(msg('rate.retry_seconds', { what: msg('rate.attempts'), n: 30 }))).toBe('Too many attempts. Please try again in 30 seconds.');
    expect(messageText(msg('statement.purchase_of', { title: 'Citrus & Waves?', discount: '' }))).toBe('Purchase: Citrus & Waves?');
    expect(messageText('Something else went wrong.')).toBe('Something else went wrong.');
    expect(messageText('field.unknown_key')).toBe('field.unknown_key');
  });

  it('puts the German field name into a templated message', () => {
    expect(german(msg('field.required', { field: 'email' }))).toBe('Bitte fülle „E-Mail“ aus.');
    expect(german(msg('field.too_long', { field: 'subject', max: 200 }))).toBe('„Betreff“ darf höchstens 200 Zeichen lang sein.');
    expect(german(msg('statement.purchase_of', { title: 'Citrus Waves', discount: '' }))).toBe('Kauf: Citrus Waves');
    expect(german(msg('field.required', { field: 'frobnicator' }))).toBeUndefined();
  });

  it('has every key of the catalogue in both dictionaries, the English word for word', () => {
    for (const [key, text] of Object.entries(MESSAGES)) {
      expect((en as Record<string, string>)[`errors.${key}`], key).toBe(text);
      expect((de as Record<string, string>)[`errors.${key}`], key).toBeTruthy();
    }
  });
});
