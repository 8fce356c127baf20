export { passkeysRoutes } from './passkeys.routes';
