import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { ToastProvider } from '../components/ui/toast';
import { i18n } from '../lib/i18n';
import { I18nextProvider } from '../lib/i18n-runtime';
import { createQueryClient } from '../lib/query-client';

/** Renders a component with the app's real providers: query client, words, toasts and a router. */
export function renderWithApp(ui: ReactNode, { path = '/' }: { path?: string } = {}) {
  const router = createMemoryRouter([{ path: '*', element: ui }], { initialEntries: [path] });
  return renderRouter(router);
}

/** Renders a router of the test's own (several routes, lazy pages) with the app's real providers. */
export function renderRouter(router: ReturnType<typeof createMemoryRouter>, queryClient = createQueryClient()) {
  const result = render(
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <ToastProvider>
          <RouterProvider router={router} />
        </ToastProvider>
      </I18nextProvider>
    </QueryClientProvider>,
  );
  return { ...result, queryClient, router };
}

export function jsonAnswer(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
