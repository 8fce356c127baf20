import type { Offer } from '@atelier/shared';

/** An offer as GET /api/offer/history answers it (SPEC §3), changed by `over`. */
export function offerFixture(over: Partial<Offer> = {}): Offer {
  return {
    id: 1,
    title: 'Harbour at Dawn',
    description: 'Fishing boats at first light.',
    doc_type: 'image',
    doc_url: 'offers/1.webp',
    imageUrl: '/storage/offers/1.webp',
    user_price: 12.5,
    service_price: null,
    currency: 'EUR',
    status: 'pending',
    deal_type: 'buyout',
    status_note: null,
    created_at: new Date(2026, 10, 22, 7, 5, 9).getTime() / 1000,
    tags: [{ name: 'Photo-realism' }, { name: '3D Rendering' }],
    ...over,
  };
}
