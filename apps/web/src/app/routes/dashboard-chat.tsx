import { ChatView } from '../../features/chat';

export function Component() {
  return <ChatView />;
}
