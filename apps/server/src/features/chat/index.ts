/** Chat's public face: conversations, the commission deal, locked images. */
export { chatRoutes } from './chat.routes';
export { type ChatEvent, chatTransitions, nextChatStatus } from './chat-states';
