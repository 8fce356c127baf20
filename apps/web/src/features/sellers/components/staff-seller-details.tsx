import type { SellerDetails } from '@atelier/shared';
import { useQuery } from '@tanstack/react-query';
import { contract, payloadOf } from '../../../lib/api-contract';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';

const line = (d: SellerDetails) =>
  [
    d.legal_name,
    d.kind === 'individual' ? d.date_of_birth : d.registration_number,
    [d.address.line1, d.address.line2, `${d.address.post_code} ${d.address.city}`, d.address.country].filter(Boolean).join(', '),
    d.tax_id,
    d.vat_id,
  ]
    .filter(Boolean)
    .join(' · ');

/** Staff: a seller's trader details now, and the ones a change after a sale replaced (issue 33). */
export function StaffSellerDetails({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const view = useQuery({
    queryKey: ['seller-details', 'staff', userId],
    queryFn: ({ signal }) => payloadOf(contract.GET('/api/admin/users/{id}/seller-details', { params: { path: { id: userId } }, signal })),
  });
  if (!view.data) return null;
  const { current, history } = view.data;
  return (
    <section data-testid="staff-seller-details">
      <h4>{t('sellers.title')}</h4>
      {current ? <p className="small">{line(current)}</p> : <p className="muted small">{t('admin.none')}</p>}
      {history.length > 0 && (
        <ul className="admin-rows">
          {history.map((h) => (
            <li key={h.replaced_at} className="small muted">
              {t('sellers.replaced_on', { date: formatDateTime(h.replaced_at) })} {line(h.details)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
