import type { CardPayoutInput, SepaPayoutInput } from '@atelier/shared';
import { OFFER_STYLES } from '@atelier/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, currentLanguage, ensureCsrfCookie, reactToFailure, retryOnStaleCsrf } from '../../../lib/api-client';
import { type ApiAnswer, type ApiPayload, contract, envelopeOf, payloadOf } from '../../../lib/api-contract';
import { readCookie } from '../../../lib/cookies';
import { i18n, localizeMessage } from '../../../lib/i18n';

export const offerKeys = {
  history: ['offers', 'history'] as const,
  styles: ['offers', 'styles'] as const,
  contact: ['offers', 'contact-details'] as const,
  countries: ['site', 'countries'] as const,
};

/**
 * SPEC §8 offers: two known server faults get their own words (the payment provider out of reach, any
 * other server fault); otherwise the first message of the answer's errors, then its message, then the
 * exception's message, then the call's default.
 */
export function offerErrorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError) {
    if (err.key === 'payments.gateway_unavailable') return i18n.t('offers.gateway_error');
    if (err.status === 500) return i18n.t('offers.api_error');
    const field = Object.keys(err.errors).find((name) => err.errors[name]?.length);
    if (field) return localizeMessage(err.fieldMessage(field) ?? '');
    if (err.message && !err.generic) return localizeMessage(err.displayMessage);
    return fallback;
  }
  if (err instanceof Error && err.message) return err.message;
  return fallback;
}

/** How often the list is asked again while a payout is on its way, so `paid` shows without a reload. */
export const PAYOUT_POLL_MS = 5000;

/** GET /api/offer/history: the signed-in creator's offers, newest first. */
export function useOffers() {
  return useQuery<ApiPayload<'/api/offer/history', 'get'>>({
    queryKey: offerKeys.history,
    refetchInterval: (query) => (query.state.data?.some((o) => o.status === 'payout_processing') ? PAYOUT_POLL_MS : false),
    queryFn: async ({ signal }) => {
      try {
        return await payloadOf(contract.GET('/api/offer/history', { signal }));
      } catch (err) {
        if (err instanceof ApiError) throw new ApiError(offerErrorMessage(err, i18n.t('offers.fetch_error')), err.status, err.errors);
        throw err;
      }
    },
  });
}

/** GET /api/offer/styles: the nine styles; the bundled list stands in until the answer comes. */
export function useOfferStyles() {
  return useQuery({
    queryKey: offerKeys.styles,
    queryFn: ({ signal }) => payloadOf(contract.GET('/api/offer/styles', { signal })),
    placeholderData: OFFER_STYLES.map((s) => ({ ...s })),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** GET /api/countries, fetched once and kept (SPEC §7). */
export function useCountries() {
  return useQuery({
    queryKey: offerKeys.countries,
    queryFn: ({ signal }) => payloadOf(contract.GET('/api/countries', { signal })),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
}

/** GET /api/offer/contact-details: the last payout's contact details, else the profile's. */
export function useContactDetails(enabled = true) {
  return useQuery({
    queryKey: offerKeys.contact,
    queryFn: ({ signal }) => payloadOf(contract.GET('/api/offer/contact-details', { signal })),
    enabled,
    retry: false,
  });
}

export type OfferAnswer = ApiAnswer<'/api/offer/approve', 'post'>;

/**
 * POST /api/offer/create as multipart, sent with XMLHttpRequest (the one browser API that reports
 * upload progress), with the same XSRF header, language and envelope handling as every other call.
 */
export function uploadOffer(form: FormData, onProgress: (percent: number) => void): Promise<OfferAnswer> {
  return retryOnStaleCsrf((last) => uploadOfferOnce(form, onProgress, last));
}

async function uploadOfferOnce(form: FormData, onProgress: (percent: number) => void, last: boolean): Promise<OfferAnswer> {
  await ensureCsrfCookie();
  return new Promise<OfferAnswer>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/offer/create');
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('X-XSRF-TOKEN', readCookie('XSRF-TOKEN') ?? '');
    xhr.setRequestHeader('X-Frontend-Language', currentLanguage());
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(Math.min(100, Math.round((e.loaded / e.total) * 100)));
    };
    xhr.onerror = () => reject(new ApiError(i18n.t('app.connection_error'), 0));
    xhr.onload = () => {
      let data: { status?: string; payload?: OfferAnswer['payload'] } = {};
      try {
        data = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON: the generic message below */
      }
      if (xhr.status >= 200 && xhr.status < 300 && data.status === 'OK') {
        onProgress(100);
        resolve(data as OfferAnswer);
        return;
      }
      const failure = ApiError.fromAnswer(xhr.status, data);
      // A first 419 is retried with a renewed XSRF cookie (retryOnStaleCsrf) before anything reacts.
      if (last || xhr.status !== 419) reactToFailure(xhr.status, failure.code);
      reject(failure);
    };
    xhr.send(form);
  });
}

/** SPEC §4: every successful action reloads the offer list. */
function useReloadOffers() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: offerKeys.history });
}

export function useCreateOffer() {
  const reload = useReloadOffers();
  return useMutation({
    mutationFn: ({ form, onProgress }: { form: FormData; onProgress: (percent: number) => void }) => uploadOffer(form, onProgress),
    onSuccess: reload,
  });
}

export function useApproveOffer() {
  const reload = useReloadOffers();
  return useMutation({
    mutationFn: (id: number) => envelopeOf(contract.POST('/api/offer/approve', { body: { id } })),
    onSuccess: reload,
  });
}

export function useDeclineOffer() {
  const reload = useReloadOffers();
  return useMutation({
    mutationFn: (id: number) => envelopeOf(contract.POST('/api/offer/decline', { body: { id } })),
    onSuccess: reload,
  });
}

/** The SPEC §3 payout payloads as the form sends them (the server parses and checks them again). */
export type CardPayoutBody = Omit<CardPayoutInput, 'terms' | 'paymentType'> & { paymentType: 'card'; terms: boolean };
export type SepaPayoutBody = Omit<SepaPayoutInput, 'paymentType'> & { paymentType: 'sepa' };
export type PayoutBody = CardPayoutBody | SepaPayoutBody;

/** POST /api/offer/request-payout/{card|sepa}; the contact details are remembered for next time. */
export function useRequestPayout() {
  const reload = useReloadOffers();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PayoutBody) =>
      envelopeOf(
        body.paymentType === 'card' ? contract.POST('/api/offer/request-payout/card', { body }) : contract.POST('/api/offer/request-payout/sepa', { body }),
      ),
    onSuccess: () => {
      void reload();
      void queryClient.invalidateQueries({ queryKey: offerKeys.contact });
    },
  });
}

/** PATCH /api/offer/{id}/listing: the creator's new price for an approved listing (above 50% away: back to review). */
export function useChangeListingPrice() {
  const reload = useReloadOffers();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: number; price: number; personal_price?: number | null; extended_price?: number | null }) =>
      envelopeOf(contract.PATCH('/api/offer/{id}/listing', { params: { path: { id } }, body })),
    onSuccess: reload,
  });
}

/** POST /api/offer/{id}/unlist or /relist: the listing out of the shop, or back in. */
export function useToggleListing() {
  const reload = useReloadOffers();
  return useMutation({
    mutationFn: ({ id, to }: { id: number; to: 'unlist' | 'relist' }) =>
      envelopeOf(
        to === 'unlist'
          ? contract.POST('/api/offer/{id}/unlist', { params: { path: { id } } })
          : contract.POST('/api/offer/{id}/relist', { params: { path: { id } } }),
      ),
    onSuccess: reload,
  });
}
