import type {
  AdjustmentInput,
  AdminCurrency,
  AdminDispute,
  AdminFlaggedDeposit,
  AdminJob,
  AdminJobsPage,
  AdminOffer,
  AdminPack,
  AdminPackCreate,
  AdminProduct,
  AdminProductUpdate,
  AdminReceivable,
  AdminRefundRequest,
  AdminSettings,
  AdminSettingsUpdate,
  AdminStaticPage,
  AdminUser,
  AdminUserDetail,
  AuditEntry,
  ContactMessageView,
  JournalTransaction,
  LedgerAccountView,
  OfferStatus,
  Payout,
  Reconciliation,
  SocialLink,
} from '@atelier/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useMoney, useSelectedCurrency } from '../../currency';
import { siteKeys } from '../../site';

/** Query keys of the back office: every staff answer lives under ['admin', …], so one action refreshes them all. */
export const adminKeys = {
  all: ['admin'] as const,
  offers: (status: OfferStatus | '') => ['admin', 'offers', status] as const,
  product: (id: number) => ['admin', 'product', id] as const,
  payouts: (status: string) => ['admin', 'payouts', status] as const,
  refunds: (status: string) => ['admin', 'refund-requests', status] as const,
  jobs: (state: string, page: number) => ['admin', 'jobs', state, page] as const,
  accounts: ['admin', 'ledger', 'accounts'] as const,
  journal: (filters: JournalFilters) => ['admin', 'ledger', 'journal', filters] as const,
  reconciliation: ['admin', 'ledger', 'reconciliation'] as const,
  disputes: (status: string, currency: string | null) => ['admin', 'disputes', status, currency] as const,
  receivables: (currency: string | null) => ['admin', 'receivables', currency] as const,
  flaggedDeposits: ['admin', 'deposits', 'flagged'] as const,
  audit: (filters: AuditFilters) => ['admin', 'audit', filters] as const,
  users: (q: string) => ['admin', 'users', q] as const,
  user: (id: number) => ['admin', 'user', id] as const,
  messages: (status: string) => ['admin', 'messages', status] as const,
  settings: ['admin', 'settings'] as const,
  staticPages: ['admin', 'static-pages'] as const,
  currencies: ['admin', 'currencies'] as const,
  socialLinks: ['admin', 'social-links'] as const,
  products: (filters: ProductFilters) => ['admin', 'products', filters] as const,
};

export type JournalFilters = { account_id?: string; user_id?: string; reason?: string; from?: string; to?: string };
export type AuditFilters = { staff_id?: string; subject?: string };
export type ProductFilters = { q?: string; status?: string; product_type?: string };

/** A staff action: on success every back-office answer is asked again (the audit log included). */
function useAdminAction<I, O>(call: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

export const useAdminOffers = (status: OfferStatus | '') =>
  useQuery({ queryKey: adminKeys.offers(status), queryFn: ({ signal }) => api<AdminOffer[]>('/api/admin/offers', { signal, query: { status } }) });

export const useCounterOffer = () =>
  useAdminAction(({ id, service_price, note }: { id: number; service_price: number; note: string }) =>
    api<unknown>(`/api/admin/offers/${id}/counter`, { method: 'POST', body: { service_price, note } }),
  );

/** Issue 19: a listing approved as it is, published as the creator's own product at their price. */
export const useApproveListing = () => useAdminAction((id: number) => api<unknown>(`/api/admin/offers/${id}/approve`, { method: 'POST' }));

export const useDeclineOffer = () =>
  useAdminAction(({ id, reason, status }: { id: number; reason: string; status: 'declined_by_service' | 'declined' }) =>
    api<unknown>(`/api/admin/offers/${id}/decline`, { method: 'POST', body: { reason, status } }),
  );

export const useAdminProducts = (filters: ProductFilters) =>
  useQuery({ queryKey: adminKeys.products(filters), queryFn: ({ signal }) => api<AdminProduct[]>('/api/admin/products', { signal, query: filters }) });

export const useCreatePack = () => useAdminAction((input: AdminPackCreate) => api<AdminPack>('/api/admin/packs', { method: 'POST', body: input }));

export const useSetPackItems = () =>
  useAdminAction(({ id, product_ids }: { id: number; product_ids: number[] }) =>
    api<AdminPack>(`/api/admin/packs/${id}/items`, { method: 'PUT', body: { product_ids } }),
  );

export const useAdminProduct = (id: number) =>
  useQuery({ queryKey: adminKeys.product(id), queryFn: ({ signal }) => api<AdminProduct>(`/api/admin/products/${id}`, { signal }) });

export const useUpdateProduct = () =>
  useAdminAction(({ id, ...body }: AdminProductUpdate & { id: number }) => api<AdminProduct>(`/api/admin/products/${id}`, { method: 'PATCH', body }));

export const useAdminPayouts = (status: string) =>
  useQuery({ queryKey: adminKeys.payouts(status), queryFn: ({ signal }) => api<Payout[]>('/api/admin/payouts', { signal, query: { status } }) });

/** Marked paid with the bank transfer's reference, or failed with a reason. */
export const useSettlePayout = () =>
  useAdminAction(({ id, ...body }: { id: number; outcome: 'paid'; reference: string } | { id: number; outcome: 'failed'; reason: string }) =>
    api<Payout>(`/api/admin/payouts/${id}/complete`, { method: 'POST', body }),
  );

/** A payout that needs review: the provider is asked again, by payout id, whether it paid. */
export const useReconcilePayout = () => useAdminAction((id: number) => api<Payout>(`/api/admin/payouts/${id}/reconcile`, { method: 'POST', body: {} }));

/** The job queue: queued, running and failed jobs (state '' = all three), 50 a page. */
export const useAdminJobs = (state: string, page: number) =>
  useQuery({
    queryKey: adminKeys.jobs(state, page),
    queryFn: ({ signal }) => api<AdminJobsPage>('/api/admin/jobs', { signal, query: state ? { state, page } : { page } }),
  });

export const useRetryJob = () => useAdminAction((id: number) => api<AdminJob>(`/api/admin/jobs/${id}/retry`, { method: 'POST', body: {} }));

export const useLedgerAccounts = () =>
  useQuery({ queryKey: adminKeys.accounts, queryFn: ({ signal }) => api<LedgerAccountView[]>('/api/admin/ledger/accounts', { signal }) });

export const useJournal = (filters: JournalFilters) =>
  useQuery({
    queryKey: adminKeys.journal(filters),
    queryFn: ({ signal }) => api<JournalTransaction[]>('/api/admin/ledger/journal', { signal, query: filters }),
  });

export const useReconciliation = () =>
  useQuery({ queryKey: adminKeys.reconciliation, queryFn: ({ signal }) => api<Reconciliation>('/api/admin/ledger/reconciliation', { signal }) });

/** Disputes (chargebacks), newest first, their amounts in the visitor's currency with the EUR cents. */
export function useAdminDisputes(status: '' | 'open' | 'won' | 'lost') {
  const currency = useSelectedCurrency();
  return useQuery({
    queryKey: adminKeys.disputes(status, currency.code),
    queryFn: ({ signal }) => api<AdminDispute[]>('/api/admin/disputes', { signal, query: status ? { status } : {}, currency: currency.code }),
    enabled: currency.ready,
  });
}

/** Receivables that are not zero (below zero: owed), in the visitor's currency with the EUR cents. */
/** Deposits whose payment event did not match them (issue 30): nothing credited, for staff to look at. */
export const useFlaggedDeposits = () =>
  useQuery({ queryKey: adminKeys.flaggedDeposits, queryFn: ({ signal }) => api<AdminFlaggedDeposit[]>('/api/admin/deposits/flagged', { signal }) });

export function useAdminReceivables() {
  const currency = useSelectedCurrency();
  return useQuery({
    queryKey: adminKeys.receivables(currency.code),
    queryFn: ({ signal }) => api<AdminReceivable[]>('/api/admin/receivables', { signal, currency: currency.code }),
    enabled: currency.ready,
  });
}

export const useAdjustment = () => useAdminAction((input: AdjustmentInput) => api<unknown>('/api/admin/ledger/adjustments', { method: 'POST', body: input }));

export const useAudit = (filters: AuditFilters) =>
  useQuery({ queryKey: adminKeys.audit(filters), queryFn: ({ signal }) => api<AuditEntry[]>('/api/admin/audit', { signal, query: filters }) });

export const useAdminUsers = (q: string) =>
  useQuery({ queryKey: adminKeys.users(q), queryFn: ({ signal }) => api<AdminUser[]>('/api/admin/users', { signal, query: { q } }) });

export const useAdminUser = (id: number | null) =>
  useQuery({
    queryKey: adminKeys.user(id ?? 0),
    queryFn: ({ signal }) => api<AdminUserDetail>(`/api/admin/users/${id}`, { signal }),
    enabled: id !== null,
  });

export const useUserAction = () =>
  useAdminAction(({ id, action, role, reason }: { id: number; action: 'block' | 'unblock' | 'role'; role?: 'user' | 'admin'; reason?: string }) =>
    api<AdminUser>(`/api/admin/users/${id}/${action}`, {
      method: 'POST',
      body: action === 'role' ? { role } : action === 'block' ? { reason } : undefined,
    }),
  );

export const useMessages = (status: string) =>
  useQuery({ queryKey: adminKeys.messages(status), queryFn: ({ signal }) => api<ContactMessageView[]>('/api/admin/messages', { signal, query: { status } }) });

export const useMessageHandled = () =>
  useAdminAction(({ id, handled }: { id: number; handled: boolean }) =>
    api<ContactMessageView>(`/api/admin/messages/${id}/handled`, { method: 'POST', body: { handled } }),
  );

export const useMessageReply = () =>
  useAdminAction(({ id, subject, text }: { id: number; subject: string; text: string }) =>
    api<ContactMessageView>(`/api/admin/messages/${id}/reply`, { method: 'POST', body: { subject, text } }),
  );

export const useAdminSettings = () =>
  useQuery({ queryKey: adminKeys.settings, queryFn: ({ signal }) => api<AdminSettings>('/api/admin/settings', { signal }) });

export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AdminSettingsUpdate) => api<AdminSettings>('/api/admin/settings', { method: 'PATCH', body: input }),
    // The public settings (registration, the currency name) change for this visitor too.
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: adminKeys.all }), queryClient.invalidateQueries({ queryKey: siteKeys.settings })]),
  });
}

export const useAdminStaticPages = () =>
  useQuery({ queryKey: adminKeys.staticPages, queryFn: ({ signal }) => api<AdminStaticPage[]>('/api/admin/static-pages', { signal }) });

export const previewStaticPage = (content: string) => api<{ content: string }>('/api/admin/static-pages/preview', { method: 'POST', body: { content } });

export const useSaveStaticPage = () =>
  useAdminAction(({ id, title, content }: { id: number; title: string; content: string }) =>
    api<AdminStaticPage>(`/api/admin/static-pages/${id}`, { method: 'PUT', body: { title, content } }),
  );

export const useAdminCurrencies = () =>
  useQuery({ queryKey: adminKeys.currencies, queryFn: ({ signal }) => api<AdminCurrency[]>('/api/admin/currencies', { signal }) });

export const useSaveCurrency = () =>
  useAdminAction(({ code, rate, symbol }: { code: string; rate: string; symbol: string }) =>
    api<AdminCurrency>(`/api/admin/currencies/${code}`, { method: 'PUT', body: { rate, symbol } }),
  );

export const useAdminSocialLinks = () =>
  useQuery({ queryKey: adminKeys.socialLinks, queryFn: ({ signal }) => api<SocialLink[]>('/api/admin/social-links', { signal }) });

export const useSaveSocialLink = () =>
  useAdminAction(({ id, url, image }: { id: number; url: string; image: string }) =>
    api<SocialLink>(`/api/admin/social-links/${id}`, { method: 'PUT', body: { url, image } }),
  );

/** EUR cents as staff read them, in the page's language: "€12.50", "12,50 €" (the ledger's base currency). */
export function useFormatMinor(): (minor: number) => string {
  const { format } = useMoney();
  return (minor) => format(minor / 100, 'EUR');
}

/** The refunds queue: open (with the creator's answer), refunded or rejected requests. */
export const useAdminRefunds = (status: string) =>
  useQuery({
    queryKey: adminKeys.refunds(status),
    queryFn: ({ signal }) => api<AdminRefundRequest[]>('/api/admin/refund-requests', { signal, query: status ? { status } : {} }),
  });

/** Refund or reject a request, with a note both parties read. */
export const useResolveRefund = () =>
  useAdminAction(({ id, ...body }: { id: number; decision: 'refund' | 'reject'; note: string }) =>
    api<AdminRefundRequest>(`/api/admin/refund-requests/${id}/resolve`, { method: 'POST', body }),
  );

/** Creators who owe refunds they had already withdrawn. */
