import { z } from 'zod';

/** Field name → messages, as SPEC §5 shows them (the first message is displayed). */
export const fieldErrors = z.record(z.string(), z.array(z.string()));
export type FieldErrors = z.infer<typeof fieldErrors>;

/** Field name → the keys of its messages (messages.ts), one for each in `errors` ('' for one without); only fields with a key. */
export const fieldCodes = z.record(z.string(), z.array(z.string()));
export type FieldCodes = z.infer<typeof fieldCodes>;

/**
 * Every failure on the wire (SPEC §5, §8). `message` and `errors` are English; `code` and `codes` are
 * the keys of those messages in the catalogue (messages.ts), with their values in query form, when
 * they have one: the web app decides and translates by them.
 */
export const errorEnvelope = z.object({
  status: z.literal('ERROR'),
  message: z.string(),
  code: z.string().optional(),
  errors: fieldErrors.optional(),
  codes: fieldCodes.optional(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

/** Every success on the wire: `{ status: "OK", payload, message? }`. */
export function okEnvelope<T extends z.ZodType>(payload: T) {
  return z.object({
    status: z.literal('OK'),
    payload,
    message: z.string().optional(),
  });
}

/** A success that carries only a human message. */
export const okMessage = z.object({ status: z.literal('OK'), message: z.string() });
export type OkMessage = z.infer<typeof okMessage>;

export type OkEnvelope<T> = { status: 'OK'; payload: T; message?: string };
