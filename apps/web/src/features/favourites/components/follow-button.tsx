import type { PublicProfile } from '@atelier/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { useToast } from '../../../components/ui/toast';
import { contract, payloadOf } from '../../../lib/api-contract';
import { serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useAuth } from '../../auth';
import './favourites.css';

/** Follow / Following on a creator's profile, with the follower count; a guest is sent to sign in and back. */
export function FollowButton({ profile, profileKey }: { profile: PublicProfile; profileKey: readonly unknown[] }) {
  const { t } = useTranslation();
  const auth = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const me = auth.data?.user;
  const toggle = useMutation({
    mutationFn: (follow: boolean) =>
      payloadOf((follow ? contract.POST : contract.DELETE)('/api/creators/{nickname}/follow', { params: { path: { nickname: profile.nickname } } })),
    onSuccess: (state) =>
      queryClient.setQueryData<PublicProfile>(profileKey, (old) =>
        old ? { ...old, following: state.following, followers_count: state.followers_count } : old,
      ),
    onError: (err) => toast.error(serverMessageOr(err, t('app.connection_error'))),
  });
  const own = me?.nickname === profile.nickname;
  return (
    <div className="follow-box" data-testid="follow">
      {!own && (
        <button
          type="button"
          className={profile.following ? 'button' : 'button primary'}
          aria-pressed={profile.following}
          disabled={toggle.isPending || auth.isPending}
          onClick={() => {
            if (!auth.data?.authenticated) navigate(`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`);
            else toggle.mutate(!profile.following);
          }}
        >
          {profile.following ? t('follows.following') : t('follows.follow')}
        </button>
      )}
      <span className="muted">{t('follows.followers', { count: profile.followers_count })}</span>
    </div>
  );
}
