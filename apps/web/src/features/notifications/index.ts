/** The notifications feature's public face: the bell's data, the live event stream and the e-mail settings. */
export { applyLiveEvent, useLiveConnected, useLiveEvents } from './api/live-events';
export { notificationKeys, useMarkNotificationsRead, useNotifications, useUnreadCounts } from './api/notifications';
export { DigestSetting } from './components/digest-setting';
export { NotificationPreferencesPanel } from './components/notification-preferences';
