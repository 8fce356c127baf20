// The list lives in the shared package: the web forms refuse a common password before sending it.
export { isCommonPassword } from '@atelier/shared/common-passwords';
