/** Site-wide data's public face (settings, currencies, static pages, social links): import only this file. */

export { currenciesQuery, settingsQuery, siteKeys, useCurrencies, useSettings, useSocialLinks, useStaticPage, useStaticPages } from './api/site-data';
export { staticPageTitle } from './static-page-title';
