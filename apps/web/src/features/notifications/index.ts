/** The notifications feature's public face: the bell's data and the live event stream. */
export { applyLiveEvent, useLiveConnected, useLiveEvents } from './api/live-events';
export { notificationKeys, useMarkNotificationsRead, useNotifications, useUnreadCounts } from './api/notifications';
