import { AVATAR_MAX_BYTES } from '@atelier/shared/constants';
import { type ChangeEvent, useEffect, useState } from 'react';
import { InlineError } from '../../../components/ui/field';
import { ProgressBar } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toast';
import { messageOf } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useAuth } from '../../auth';
import { useUploadAvatar } from '../api/profile-actions';

export const DEFAULT_AVATAR = '/default-avatar.svg';

/** SPEC §5 avatar rules on the client, a preview while uploading, and the progress of the upload. */
export function AvatarUploader() {
  const { t } = useTranslation();
  const toast = useToast();
  const user = useAuth().data?.user;
  const upload = useUploadAvatar();
  const [preview, setPreview] = useState<string | null>(null);
  const [progress, setProgress] = useState(0);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  function onPick(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    if (!file.type.startsWith('image/')) return setError(t('profile.avatar_not_image'));
    if (file.size >= AVATAR_MAX_BYTES) return setError(t('profile.avatar_too_big'));
    setError(null);
    setPreview(URL.createObjectURL(file));
    setProgress(0);
    upload.mutate(
      { file, onProgress: setProgress },
      {
        onSuccess: (answer) => {
          toast.success(answer.message ?? t('profile.avatar_uploaded'));
          setPreview(null);
        },
        onError: (err) => {
          const message = messageOf(err, t('profile.avatar_failed'));
          setError(message);
          toast.error(message);
          setPreview(null);
        },
      },
    );
  }

  return (
    <section className="panel" aria-labelledby="avatar-title">
      <h2 id="avatar-title">{t('profile.avatar')}</h2>
      <div className="avatar-row">
        <img
          className="avatar"
          src={preview ?? user?.avatar_url_large ?? user?.avatar_path ?? DEFAULT_AVATAR}
          alt={t('profile.avatar_alt')}
          width="96"
          height="96"
          data-testid="profile-avatar"
        />
        <div className="form-grid">
          <label className="button" htmlFor="avatar-input">
            {t('profile.avatar_choose')}
          </label>
          <input id="avatar-input" className="visually-hidden" type="file" accept="image/*" onChange={onPick} disabled={upload.isPending} />
          <p className="field-hint">{t('profile.avatar_hint')}</p>
          {upload.isPending && <ProgressBar percent={progress} label={t('profile.avatar_uploading')} />}
          <InlineError message={error} />
        </div>
      </div>
    </section>
  );
}
