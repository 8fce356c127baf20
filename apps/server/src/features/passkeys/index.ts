export { userHasPasskey } from './passkeys.queries';
export { passkeysRoutes } from './passkeys.routes';
