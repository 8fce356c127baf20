import { useLocation, useNavigate } from 'react-router';
import { useToast } from '../../../components/ui/toast';
import { serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useAuth } from '../../auth';
import { useOpenChat } from '../api/open-chat';

type Props = {
  target: { product_id: number } | { recipient_id: number };
  /** The work's author (a product or pack page): the button is not offered on one's own work. */
  authorNickname?: string;
  className?: string;
};

/**
 * "Contact the creator": opens (or finds) the conversation and goes to the Chat tab with it
 * selected. A guest goes to sign in first and comes back here. Not offered to the creator themself
 * (issue 18 bug 11): on their own work or profile there is nobody to contact.
 */
export function ContactCreatorButton({ target, authorNickname, className = 'button ghost' }: Props) {
  const { t } = useTranslation();
  const auth = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const toast = useToast();
  const open = useOpenChat();
  const me = auth.data?.user;
  if ('recipient_id' in target && target.recipient_id === me?.id) return null;
  if (authorNickname !== undefined && me && authorNickname === me.nickname) return null;

  async function contact() {
    if (!auth.data?.authenticated) {
      navigate(`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`);
      return;
    }
    try {
      const chat = await open.mutateAsync(target);
      navigate(`/dashboard/chat?chat=${chat.id}`);
    } catch (err) {
      toast.error(serverMessageOr(err, t('chat.open_failed')));
    }
  }

  return (
    <button type="button" className={className} onClick={contact} disabled={open.isPending || auth.isPending} data-testid="contact-creator">
      {t('products.contact_creator')}
    </button>
  );
}
