import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { renderWithApp } from '../../../test/render';
import { JobsQueue } from './jobs-queue';

afterEach(() => vi.unstubAllGlobals());

const job = {
  id: 12,
  name: 'mail.deliver',
  state: 'failed',
  attempts: 5,
  last_error: 'SMTP answered 451',
  run_at: 1_790_000_000,
  timeout_at: null,
  created_at: 1_790_000_000,
  finished_at: 1_790_000_100,
};

describe('Job queue', () => {
  it('operations: lists queued, running and failed jobs with the last error, filters by state and retries a failed job', async () => {
    const asked: (string | null)[] = [];
    const calls = fakeApi({
      'GET /api/admin/jobs': ({ url }) => {
        asked.push(url.searchParams.get('state'));
        return okAnswer({
          jobs: [job, { ...job, id: 13, name: 'generation.render', state: 'running', last_error: null, timeout_at: 1_790_000_150 }],
          page: 1,
          per_page: 50,
          total: 2,
        });
      },
      'POST /api/admin/jobs/12/retry': () => okAnswer({ ...job, state: 'queued', attempts: 0 }, { message: 'The job will run again shortly.' }),
    });
    renderWithApp(<JobsQueue />);
    const row = (await screen.findByText('SMTP answered 451')).closest('tr')!;
    expect(within(row).getByText('Failed')).toBeTruthy();
    const running = screen.getByText('generation.render').closest('tr')!;
    expect(within(running).queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(screen.getByText('Page 1 of 1')).toBeTruthy();

    fireEvent.click(within(row).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/api/admin/jobs/12/retry']));

    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'failed' } });
    await waitFor(() => expect(asked).toContain('failed'));
    expect(asked[0]).toBeNull();
  });
});
