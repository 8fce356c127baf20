import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { Spinner } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toast';
import { messageOf } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useResendVerification, verifyEmailLink } from '../api/auth-actions';
import { useAuth } from '../api/auth-state';

/** The verify-email screen: where to look, and a way to get a new link. */
export function VerifyEmailNotice() {
  const { t } = useTranslation();
  const toast = useToast();
  const user = useAuth().data?.user;
  const resend = useResendVerification();
  if (user?.is_email_verified) {
    return (
      <div className="form-grid">
        <p>{t('auth.verify_already')}</p>
        <Link className="button primary block" to="/dashboard">
          {t('payment.go_dashboard')}
        </Link>
      </div>
    );
  }
  return (
    <div className="form-grid">
      <p>{t('auth.verify_sent_to', { email: user?.email ?? '' })}</p>
      <p className="auth-note">{t('auth.verify_check_spam')}</p>
      <button
        type="button"
        className="button primary block"
        disabled={resend.isPending}
        onClick={() =>
          resend.mutate(undefined, {
            onSuccess: (a) => toast.success(a.message),
            onError: (err) => toast.error(messageOf(err, t('auth.verify_resend_failed'))),
          })
        }
      >
        {resend.isPending ? t('auth.processing') : t('auth.verify_resend')}
      </button>
      <Link className="button block" to="/dashboard">
        {t('payment.go_dashboard')}
      </Link>
    </div>
  );
}

/** Opens the signed link from the e-mail, then shows the matching outcome screen. */
export function VerifyEmailLink() {
  const { t } = useTranslation();
  const { id = '', hash = '' } = useParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  const check = useQuery({
    queryKey: ['verify-email', id, hash, search],
    queryFn: () => verifyEmailLink(id, hash, search),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  useEffect(() => {
    if (check.data) navigate(check.data.already_verified ? '/email/verify/already-success' : '/email/verify/success', { replace: true });
  }, [check.data, navigate]);
  if (check.isError) {
    return (
      <div className="form-grid">
        <p className="form-error" role="alert">
          {messageOf(check.error, t('auth.verify_invalid'))}
        </p>
        <Link className="button primary block" to="/email/verify">
          {t('auth.verify_resend')}
        </Link>
      </div>
    );
  }
  return <Spinner label={t('auth.verifying')} />;
}

export function VerifyEmailDone({ already }: { already?: boolean }) {
  const { t } = useTranslation();
  const auth = useAuth();
  return (
    <div className="form-grid">
      <p role="status">{already ? t('auth.verify_already') : t('auth.verify_done')}</p>
      <Link className="button primary block" to={auth.data?.authenticated ? '/dashboard' : '/login'}>
        {auth.data?.authenticated ? t('payment.go_dashboard') : t('auth.sign_in')}
      </Link>
    </div>
  );
}
