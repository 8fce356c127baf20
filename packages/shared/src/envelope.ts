import { z } from 'zod';

/** Field name → messages, as SPEC §5 shows them (the first message is displayed). */
export const fieldErrors = z.record(z.string(), z.array(z.string()));
export type FieldErrors = z.infer<typeof fieldErrors>;

/** Every failure on the wire (SPEC §5, §8). */
export const errorEnvelope = z.object({
  status: z.literal('ERROR'),
  message: z.string(),
  errors: fieldErrors.optional(),
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
