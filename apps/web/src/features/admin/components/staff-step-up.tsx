import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { isStepUpError, StepUpDialog } from '../../security';

/**
 * Staff in production (issue 29): the back office answers a session that has not proved its second
 * factor (or, for money and settings, not lately) with errors.step_up. Whichever read or action met
 * it, this asks for the passkey or code once, then reloads what the back office shows; an action is
 * then simply made again.
 */
export function StaffStepUp() {
  const queryClient = useQueryClient();
  const [asked, setAsked] = useState(false);
  useEffect(() => {
    const onError = (error: unknown) => {
      if (isStepUpError(error)) setAsked(true);
    };
    const queries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') onError(event.action.error);
    });
    const mutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') onError(event.action.error);
    });
    return () => {
      queries();
      mutations();
    };
  }, [queryClient]);
  if (!asked) return null;
  return (
    <StepUpDialog
      onDone={() => {
        setAsked(false);
        void queryClient.invalidateQueries();
      }}
      onCancel={() => setAsked(false)}
    />
  );
}
