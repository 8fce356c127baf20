import { AvatarUploader } from '../../features/profile/components/avatar-uploader';
import { DeleteAccount } from '../../features/profile/components/delete-account';
import { PasswordChangeForm } from '../../features/profile/components/password-change-form';
import { PersonalDetailsForm } from '../../features/profile/components/personal-details-form';
import '../../features/profile/components/profile.css';

/** Dashboard › Contact information: the profile section of SPEC §2. */
export function Component() {
  return (
    <div className="profile-sections">
      <AvatarUploader />
      <PersonalDetailsForm />
      <PasswordChangeForm />
      <DeleteAccount />
    </div>
  );
}
