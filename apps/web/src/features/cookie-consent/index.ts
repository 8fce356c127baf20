/** The cookie banner's public face: other features and the pages import only this file. */
export { CookieConsent, openCookieSettings } from './cookie-consent';
