import {
  amountToMinor,
  CHAT_ATTACHMENT_MAX_BYTES,
  CHAT_MESSAGE_MAX_CHARS,
  chatDealActionInput,
  chatPriceAmount,
  chatPriceProposalInput,
  chatTextInput,
} from '@atelier/shared';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { validationError } from '../../lib/app-error';

/**
 * What a participant sends to POST /chat/{id}/messages, read once at the boundary: a JSON body (a
 * text, a proposal, a deal answer) or a multipart one (text, one attachment, a locked image), each
 * problem a 422 under the field it is about.
 */

export const MESSAGES = {
  notFound: 'This chat was not found.',
  messageNotFound: 'This message was not found.',
  self: 'You cannot start a chat with yourself.',
  noPerson: 'This person was not found.',
  noProduct: 'This product was not found.',
  empty: 'Please write a message.',
  lockedWithoutFile: 'Attach the image to lock: a locked message is the finished image itself.',
  tooLong: `The message may not be longer than ${CHAT_MESSAGE_MAX_CHARS} characters.`,
  wrongFile: 'Please attach an image (PNG, JPEG, GIF, WebP) or a document (PDF, DOC, DOCX, ZIP).',
  tooLarge: `The attachment may be at most ${CHAT_ATTACHMENT_MAX_BYTES / 1024 / 1024} MB.`,
  lockedNeedsImage: 'A locked attachment must be an image.',
  blockedByOther: 'You cannot send messages in this chat: this person has blocked you.',
  blockedByMe: 'You blocked this person. Unblock them to send messages.',
} as const;

/** A form's yes for `is_locked`: '1', 'true', or a checkbox's 'on' (JSON: true or 1 too). */
const isYes = (value: unknown) => value === true || value === 1 || ['1', 'true', 'on', 'yes'].includes(String(value).trim().toLowerCase());

type Outgoing = { text: string | null; file: { data: Buffer; name: string | undefined } | null; isLocked: boolean; price: number | null };

/** Reads a multipart message: fields `message`, `is_locked`, `price` and one file `attachment`. */
export async function readMultipart(request: FastifyRequest): Promise<Outgoing> {
  const out: Outgoing = { text: null, file: null, isLocked: false, price: null };
  let priceRaw: string | null = null;
  try {
    // One byte past the limit is read, and the size of what arrived decides (issue 18 bug 10): the library's
    // `truncated` flag alone let an attachment over the limit through now and then.
    for await (const part of request.parts({ limits: { fileSize: CHAT_ATTACHMENT_MAX_BYTES + 1, files: 1 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'attachment') {
          await part.toBuffer();
          continue;
        }
        const data = await part.toBuffer();
        if (data.length > CHAT_ATTACHMENT_MAX_BYTES) throw validationError({ attachment: MESSAGES.tooLarge });
        // A form whose file input was left empty still sends the part, with no name and no bytes: no file.
        if (data.length > 0 || part.filename) out.file = { data, name: part.filename };
      } else if (part.fieldname === 'message') out.text = String(part.value);
      else if (part.fieldname === 'is_locked') out.isLocked = isYes(part.value);
      else if (part.fieldname === 'price') priceRaw = String(part.value);
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw validationError({ attachment: MESSAGES.tooLarge });
    throw err;
  }
  if (priceRaw !== null && priceRaw.trim() !== '') {
    const parsed = chatPriceAmount.safeParse(priceRaw);
    if (!parsed.success) throw validationError({ price: parsed.error.issues[0]?.message ?? 'Please enter a price.' });
    out.price = amountToMinor(parsed.data);
  }
  return out;
}

export function checkText(text: string | null, required: boolean): string | null {
  const trimmed = text?.trim() ?? '';
  if (trimmed.length > CHAT_MESSAGE_MAX_CHARS) throw validationError({ message: MESSAGES.tooLong });
  if (!trimmed) {
    if (required) throw validationError({ message: MESSAGES.empty });
    return null;
  }
  return trimmed;
}

/** A JSON body's problem under the field it is about (zod's first message for each). */
function fieldErrors(error: z.ZodError, fallbackField: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? fallbackField);
    out[field] ??= issue.message;
  }
  return out;
}

/** The JSON body of a message: a deal proposal, a deal answer, or a text; each refused under its own field. */
export function readJson(body: unknown) {
  const raw = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  // A locked image is a file, which a JSON body cannot carry: ask for the image, not for a text.
  if ('is_locked' in raw && isYes(raw.is_locked)) throw validationError({ attachment: MESSAGES.lockedWithoutFile });
  const schema = 'type' in raw ? chatPriceProposalInput : 'action' in raw ? chatDealActionInput : chatTextInput;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw validationError(fieldErrors(parsed.error, 'message'));
  return parsed.data;
}
