import type {
  AdminReportGroup,
  Report,
  ReportDecision,
  ReportGround,
  ReportInput,
  ReportStatus,
  StatementOfReasons,
  TransparencyReport,
} from '@atelier/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiEnvelope } from '../../../lib/api-client';

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
      apiEnvelope<{ status: 'OK'; report: Report; message: string }>('/api/reports', { method: 'POST', body: input }),
  });

/** The statements of reasons about my content. */
export const useMyStatements = () =>
  useQuery({ queryKey: reportKeys.statements, queryFn: ({ signal }) => api<StatementOfReasons[]>('/api/user/reports/statements', { signal }) });

function useReportAction<I, O>(call: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: call, onSuccess: () => queryClient.invalidateQueries({ queryKey: reportKeys.all }) });
}

/** The author appeals a decision. */
export const useAppealReport = () =>
  useReportAction(({ id, message }: { id: number; message: string }) =>
    api<StatementOfReasons>(`/api/reports/${id}/appeal`, { method: 'POST', body: { message } }),
  );

/** Staff: the queue, grouped by subject. */
export const useAdminReports = (status: ReportStatus) =>
  useQuery({ queryKey: reportKeys.admin(status), queryFn: ({ signal }) => api<AdminReportGroup[]>('/api/admin/reports', { signal, query: { status } }) });

export const useDecideReport = () =>
  useReportAction(({ id, ...body }: { id: number; decision: ReportDecision; ground: ReportGround; explanation: string }) =>
    api<Report>(`/api/admin/reports/${id}/decide`, { method: 'POST', body }),
  );

export const useDecideAppeal = () =>
  useReportAction(({ id, ...body }: { id: number; outcome: 'upheld' | 'reversed'; explanation: string }) =>
    api<Report>(`/api/admin/reports/${id}/appeal-decide`, { method: 'POST', body }),
  );

/** The public figures. */
export const useTransparency = () =>
  useQuery({
    queryKey: reportKeys.transparency,
    queryFn: ({ signal }) => apiEnvelope<TransparencyReport>('/api/transparency', { signal }).then((r) => r.payload),
  });
