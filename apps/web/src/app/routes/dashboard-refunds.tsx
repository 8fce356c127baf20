import { CreatorRefunds } from '../../features/refunds';
import { useTranslation } from '../../lib/i18n-runtime';

/**
 * The creator's refund requests: answer once, or accept. The tab's heading is there for screen
 * readers, so the requests' own headings follow the page's in order (issue 31).
 */
export function Component() {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="creator-refunds-title">
      <h2 id="creator-refunds-title" className="visually-hidden">
        {t('refunds.creator_title')}
      </h2>
      <CreatorRefunds />
    </section>
  );
}
