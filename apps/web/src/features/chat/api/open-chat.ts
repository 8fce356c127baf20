import type { OpenChatInput } from '@atelier/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { contract, payloadOf } from '../../../lib/api-contract';

/** POST /api/chat: opens (or finds) the conversation with a person or a product's creator. */
export function useOpenChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: OpenChatInput) => payloadOf(contract.POST('/api/chat', { body: input })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['chats'] }),
  });
}
