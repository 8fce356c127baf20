import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { FullScreenSpinner, Spinner } from '../../components/ui/spinner';
import { AdminShell, isStaff } from '../../features/admin';
import { useAuth } from '../../features/auth';
import { Component as Forbidden } from './forbidden';

/**
 * The back office (/admin): staff only. Anyone else signed in sees the forbidden page at this
 * address; the back office's own code (its shell and sections) loads only after the role check.
 */
export function Component() {
  const auth = useAuth();
  if (auth.isPending) return <FullScreenSpinner />;
  if (!isStaff(auth.data?.user)) return <Forbidden />;
  return (
    <Suspense fallback={<FullScreenSpinner />}>
      <AdminShell>
        <Suspense fallback={<Spinner />}>
          <Outlet />
        </Suspense>
      </AdminShell>
    </Suspense>
  );
}
