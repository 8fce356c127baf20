import { Spinner } from '../../components/ui/spinner';
import { MyProjects } from '../../features/offers';
import { OrderHistory } from '../../features/orders';
import { useTranslation } from '../../lib/i18n-runtime';
import { usePageTitle } from '../../lib/page-title';
import { useIsCreator } from '../use-is-creator';

/**
 * The dashboard's first screen (issue 31): a creator's projects, and for someone who has offered
 * nothing yet their Library, starting with orders and downloads, never "Create new offer".
 */
export function Component() {
  const { t } = useTranslation();
  const creator = useIsCreator();
  usePageTitle(creator === false ? t('dashboard.order_history') : undefined);
  if (creator === undefined) return <Spinner label={t('app.loading')} />;
  return creator ? <MyProjects /> : <OrderHistory />;
}
