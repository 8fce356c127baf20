/**
 * Account security's public face (issue 21): the Security screen's routes, the second-factor checks
 * other features call (step-up before sensitive changes, the staff rule, the 2FA sign-in step), and
 * the session tools (sign-in alert, revoking sessions).
 */

export { securityRoutes } from './security.routes';
export { revokeOtherSessions, sendNewBrowserAlert } from './sessions';
export {
  hasSecondFactor,
  requireFreshProof,
  requireFreshSecondFactor,
  requireStaffSecondFactor,
  secondFactorMethods,
  tellFactorChange,
  totpEnabled,
  userHasPasskey,
  verifySecondFactor,
} from './two-factor';
