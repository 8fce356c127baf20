import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { ReportLink } from './report-dialog';

afterEach(() => vi.unstubAllGlobals());

const guest = { 'GET /api/is-auth': () => jsonAnswer(200, { status: 'OK', payload: { authenticated: false } }) };
const filed = {
  status: 'OK',
  payload: {
    id: 9,
    subject: { type: 'product', id: 7, title: 'Fox', link: '/products/fox' },
    reason: 'copyright',
    status: 'open',
    created_at: 1_790_000_000,
    decision: null,
    decided_at: null,
  },
  message: 'Thank you. We sent you a confirmation, and we will tell you what we decide.',
};

describe('Report dialog', () => {
  it('a guest gives an e-mail; the server’s sentences show under their fields; a sent report is confirmed', async () => {
    let attempt = 0;
    const calls = fakeApi({
      ...guest,
      'POST /api/reports': () => {
        attempt += 1;
        return attempt === 1
          ? jsonAnswer(422, {
              status: 'ERROR',
              message: 'A copyright report needs the name of the rights holder or of the person acting for them.',
              errors: { name: ['A copyright report needs the name of the rights holder or of the person acting for them.'] },
            })
          : jsonAnswer(200, filed);
      },
    });
    renderWithApp(<ReportLink subjectType="product" subjectId={7} title="Fox" />);
    fireEvent.click(screen.getByRole('button', { name: 'Report' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report this content' });
    await waitFor(() => expect(screen.getByLabelText('Your e-mail address')).toBeTruthy());
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'copyright' } });
    fireEvent.change(screen.getByLabelText('What is wrong, and why (at least 20 characters)'), {
      target: { value: 'This copies my registered artwork exactly.' },
    });
    fireEvent.change(screen.getByLabelText('Your e-mail address'), { target: { value: 'rita@example.com' } });
    fireEvent.click(screen.getByLabelText('I report in good faith: what I say is accurate and complete.'));
    fireEvent.click(screen.getByRole('button', { name: 'Send report' }));
    expect(await screen.findByText('A copyright report needs the name of the rights holder or of the person acting for them.')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Name of the rights holder or of the person acting for them'), { target: { value: 'Rita Holder' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send report' }));
    expect(await screen.findByText(filed.message)).toBeTruthy();
    const sent = calls.filter((c) => c.path === '/api/reports').at(-1)!;
    expect(sent.body).toEqual({
      subject_type: 'product',
      subject_id: 7,
      reason: 'copyright',
      explanation: 'This copies my registered artwork exactly.',
      name: 'Rita Holder',
      email: 'rita@example.com',
      good_faith: true,
    });
    expect(dialog).toBeTruthy();
  });
});
