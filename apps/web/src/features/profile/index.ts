/** The profile feature's public face: other features and the pages import only this file. */
export { usePublicProfile } from './api/profile-actions';
export { AvatarUploader, DEFAULT_AVATAR } from './components/avatar-uploader';
export { DeleteAccount } from './components/delete-account';
export { PasswordChangeForm } from './components/password-change-form';
export { PersonalDetailsForm } from './components/personal-details-form';
