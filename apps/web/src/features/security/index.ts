/** Account security's public face (issue 21): the Security tab, and the step-up dialog other features reuse. */
export { isStepUpError, securityKeys } from './api/security';
export { SecurityTab } from './components/security-tab';
export { StepUpDialog, useStepUp } from './components/step-up-dialog';
