import { DigestSetting } from '../../features/notifications';
import { AvatarUploader, DeleteAccount, PasswordChangeForm, PersonalDetailsForm } from '../../features/profile';
import '../../features/profile/components/profile.css';

/** Dashboard › Contact information: the profile section of SPEC §2. */
export function Component() {
  return (
    <div className="profile-sections">
      <AvatarUploader />
      <PersonalDetailsForm />
      <PasswordChangeForm />
      <DigestSetting />
      <DeleteAccount />
    </div>
  );
}
