/** The chat feature's public face: the Chat tab and "Contact the creator". */
export { useOpenChat } from './api/open-chat';
export { ChatView } from './components/chat-view';
export { ContactCreatorButton } from './components/contact-creator-button';
