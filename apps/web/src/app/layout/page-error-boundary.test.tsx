import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PageErrorBoundary } from './page-error-boundary';

function Broken(): never {
  throw new Error('The chunk did not load.');
}

describe('a page that fails', () => {
  it('shows the message in its place, and the page again at another address', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { rerender } = render(
      <PageErrorBoundary path="/products" message="Something went wrong.">
        <Broken />
      </PageErrorBoundary>,
    );
    expect(screen.getByRole('alert').textContent).toBe('Something went wrong.');
    rerender(
      <PageErrorBoundary path="/contact" message="Something went wrong.">
        <p>Contact us</p>
      </PageErrorBoundary>,
    );
    expect(screen.getByText('Contact us')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    vi.restoreAllMocks();
  });
});
