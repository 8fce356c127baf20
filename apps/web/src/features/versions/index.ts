import { lazy } from 'react';

/** Product updates' public face (issue 34): the creator's upload form, a buyer's list of versions, the staff review. */
export { OwnedVersions } from './components/owned-versions';
export { UploadVersionForm } from './components/upload-version-form';
export { VersionList } from './components/version-list';
/** The back office's queue: lazy, so only staff download it. */
export const VersionsReview = lazy(() => import('./components/versions-review').then((m) => ({ default: m.VersionsReview })));
