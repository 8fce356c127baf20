import type { Chat, OpenChatInput } from '@atelier/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /api/chat: opens (or finds) the conversation with a person or a product's creator. */
export function useOpenChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: OpenChatInput) => api<Chat>('/api/chat', { method: 'POST', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['chats'] }),
  });
}
