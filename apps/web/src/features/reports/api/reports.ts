import type { ReportDecision, ReportGround, ReportInput, ReportStatus } from '@atelier/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiEnvelope } from '../../../lib/api-client';
import { type ApiAnswer, contract, payloadOf } from '../../../lib/api-contract';

export const reportKeys = {
  all: ['reports'] as const,
  statements: ['reports', 'statements'] as const,
  admin: (status: ReportStatus) => ['reports', 'admin', status] as const,
  transparency: ['transparency'] as const,
};

/** POST /api/reports: anyone, guests included (a guest gives an e-mail). */
export const useCreateReport = () =>
  useMutation({
    mutationFn: (input: Omit<ReportInput, 'good_faith'> & { good_faith: boolean }) =>
      // The form sends an unticked good-faith box for the server's own message; the document's body only takes `true`.
      apiEnvelope<ApiAnswer<'/api/reports', 'post'>>('/api/reports', { method: 'POST', body: input }),
  });

/** The statements of reasons about my content. */
export const useMyStatements = () =>
  useQuery({ queryKey: reportKeys.statements, queryFn: ({ signal }) => payloadOf(contract.GET('/api/user/reports/statements', { signal })) });

function useReportAction<I, O>(call: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: call, onSuccess: () => queryClient.invalidateQueries({ queryKey: reportKeys.all }) });
}

/** The author appeals a decision. */
export const useAppealReport = () =>
  useReportAction(({ id, message }: { id: number; message: string }) =>
    payloadOf(contract.POST('/api/reports/{id}/appeal', { params: { path: { id } }, body: { message } })),
  );

/** Staff: the queue, grouped by subject. */
export const useAdminReports = (status: ReportStatus) =>
  useQuery({
    queryKey: reportKeys.admin(status),
    queryFn: ({ signal }) => payloadOf(contract.GET('/api/admin/reports', { signal, params: { query: { status } } })),
  });

export const useDecideReport = () =>
  useReportAction(({ id, ...body }: { id: number; decision: ReportDecision; ground: ReportGround; explanation: string }) =>
    payloadOf(contract.POST('/api/admin/reports/{id}/decide', { params: { path: { id } }, body })),
  );

export const useDecideAppeal = () =>
  useReportAction(({ id, ...body }: { id: number; outcome: 'upheld' | 'reversed'; explanation: string }) =>
    payloadOf(contract.POST('/api/admin/reports/{id}/appeal-decide', { params: { path: { id } }, body })),
  );

/** The public figures. */
export const useTransparency = () =>
  useQuery({
    queryKey: reportKeys.transparency,
    queryFn: ({ signal }) => payloadOf(contract.GET('/api/transparency', { signal })),
  });
