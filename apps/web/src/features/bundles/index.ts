/** Creator bundles (issue 34): the creator's Bundles tab and the back office's review queue. */
export { BundleReview } from './components/bundle-review';
export { BundlesTab } from './components/bundles-tab';
