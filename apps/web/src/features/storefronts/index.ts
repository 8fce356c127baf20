/** Storefronts' public face (issue 34): the creator's editor, and the storefront shown on a profile. */
export { useStorefront } from './api/storefront';
export { StorefrontEditor } from './components/storefront-editor';
export { StorefrontBanner, StorefrontIntro, StorefrontShowcase } from './components/storefront-showcase';
