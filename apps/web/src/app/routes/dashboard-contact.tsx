import { DigestSetting } from '../../features/notifications';
import { AvatarUploader, DeleteAccount, PasswordChangeForm, PersonalDetailsForm } from '../../features/profile';
import '../../features/profile/components/profile.css';
import { TaxCountryForm } from '../../features/tax';

/** Dashboard › Contact information: the profile section of SPEC §2. */
export function Component() {
  return (
    <div className="profile-sections">
      <AvatarUploader />
      <PersonalDetailsForm />
      <TaxCountryForm />
      <PasswordChangeForm />
      <DigestSetting />
      <DeleteAccount />
    </div>
  );
}
