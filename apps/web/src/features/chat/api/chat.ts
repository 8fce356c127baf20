import type { ChatDealAction, ChatMessage } from '@atelier/shared';
import { CHAT_POLL_MS } from '@atelier/shared/constants';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiEnvelope, currentLanguage, ensureCsrfCookie, retryOnStaleCsrf } from '../../../lib/api-client';
import { type ApiAnswer, contract, envelopeOf, payloadOf, priced } from '../../../lib/api-contract';
import { readCookie } from '../../../lib/cookies';
import { useSelectedCurrency } from '../../currency';
import { useLiveConnected } from '../../notifications';

export const chatKeys = {
  list: (currency: string | null) => ['chats', currency] as const,
  messages: (chatId: number, currency: string | null) => ['chat-messages', chatId, currency] as const,
};

/**
 * GET /api/chat: the signed-in user's conversations, newest activity first. Refreshed by the live
 * stream, or every 5 s while it is closed and `poll` is set (SPEC §4: only while the chat tab is open).
 */
export function useChats(poll: boolean) {
  const currency = useSelectedCurrency();
  const live = useLiveConnected();
  return useQuery({
    queryKey: chatKeys.list(currency.code),
    queryFn: ({ signal }) => payloadOf(contract.GET('/api/chat', { signal, headers: priced(currency.code) })),
    enabled: currency.ready,
    refetchInterval: poll && !live ? CHAT_POLL_MS : false,
  });
}

/**
 * Every message of a chat, oldest first: SPEC §4 fetches page by page until there is no next page
 * (page 1 is the newest). Only the selected chat's query polls, so switching chats or leaving stops it.
 */
export function useMessages(chatId: number | null) {
  const currency = useSelectedCurrency();
  const live = useLiveConnected();
  return useQuery({
    queryKey: chatKeys.messages(chatId ?? 0, currency.code),
    queryFn: async ({ signal }) => {
      const pages = [];
      for (let page = 1; page <= 200; page++) {
        const answer = await envelopeOf(
          contract.GET('/api/chat/{chatId}/messages', { signal, params: { path: { chatId: chatId ?? 0 }, query: { page } }, headers: priced(currency.code) }),
        );
        pages.push(answer.payload);
        if (!answer.meta.next) break;
      }
      return pages.reverse().flat();
    },
    enabled: chatId !== null && currency.ready,
    refetchInterval: live ? false : CHAT_POLL_MS,
  });
}

function useChatInvalidation(chatId: number) {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: ['chat-messages', chatId] });
    void queryClient.invalidateQueries({ queryKey: ['chats'] });
  };
}

/** POST /api/chat/{id}/messages as JSON: a text, a price proposal, or a deal answer (accept, negotiate, cancel). */
export function useSendJson(chatId: number) {
  const refresh = useChatInvalidation(chatId);
  const currency = useSelectedCurrency();
  return useMutation({
    mutationFn: (body: { message: string } | { type: 'price_proposal'; amount: number } | { action: ChatDealAction }) =>
      // The route reads JSON or multipart itself, so the document types no body: apiEnvelope sends it, the answer typed from the document.
      apiEnvelope<ApiAnswer<'/api/chat/{chatId}/messages', 'post'>>(`/api/chat/${chatId}/messages`, { method: 'POST', body, currency: currency.code }).then(
        (answer) => answer.payload,
      ),
    onSuccess: refresh,
  });
}

/**
 * POST /api/chat/{id}/messages as multipart (an attachment, or the creator's locked image), with
 * upload progress (fetch cannot report it, XMLHttpRequest can).
 */
export function uploadMessage(chatId: number, form: FormData, onProgress: (fraction: number) => void): Promise<ChatMessage> {
  return retryOnStaleCsrf(() => uploadMessageOnce(chatId, form, onProgress));
}

async function uploadMessageOnce(chatId: number, form: FormData, onProgress: (fraction: number) => void): Promise<ChatMessage> {
  await ensureCsrfCookie();
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/chat/${chatId}/messages`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('X-Frontend-Language', currentLanguage());
    const token = readCookie('XSRF-TOKEN');
    if (token) xhr.setRequestHeader('X-XSRF-TOKEN', token);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () => reject(new ApiError('Could not connect to the server. Please try again later.', 0));
    xhr.onload = () => {
      let data: { status?: string; payload?: ChatMessage; message?: string; errors?: Record<string, string[]> } = {};
      try {
        data = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON */
      }
      if (xhr.status >= 200 && xhr.status < 300 && data.status === 'OK' && data.payload) resolve(data.payload);
      else {
        const first = data.errors ? Object.values(data.errors)[0]?.[0] : undefined;
        const message = first ?? data.message;
        reject(new ApiError(message ?? `Request failed (${xhr.status}).`, xhr.status, data.errors ?? {}, { generic: !message }));
      }
    };
    xhr.send(form);
  });
}

export function useUpload(chatId: number) {
  const refresh = useChatInvalidation(chatId);
  return useMutation({
    mutationFn: ({ form, onProgress }: { form: FormData; onProgress: (fraction: number) => void }) => uploadMessage(chatId, form, onProgress),
    onSuccess: refresh,
  });
}

/** POST /api/chat/{id}/unlock: paid from the balance, or the card widget for exactly the price. */
export function useUnlock(chatId: number) {
  const refresh = useChatInvalidation(chatId);
  const queryClient = useQueryClient();
  const currency = useSelectedCurrency();
  return useMutation({
    mutationFn: ({ messageId, idempotencyKey }: { messageId: number; idempotencyKey: string }) =>
      payloadOf(
        contract.POST('/api/chat/{chatId}/unlock', {
          params: { path: { chatId } },
          body: { message_id: messageId },
          headers: { ...priced(currency.code), 'Idempotency-Key': idempotencyKey },
        }),
      ),
    onSuccess: (result) => {
      if (result.status === 'Success') {
        refresh();
        void queryClient.invalidateQueries({ queryKey: ['balance'] });
      }
    },
  });
}
