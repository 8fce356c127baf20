/** Notifications' public face: the bell's calls, the live event stream, and notify() for other features. */
export { EVENTS_CHANNEL, notify, publishEvent } from './notifications';
export { notificationsRoutes } from './notifications.routes';
export { silencedSql, wantsNotice } from './preferences';
