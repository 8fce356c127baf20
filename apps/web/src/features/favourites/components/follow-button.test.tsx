import type { PublicProfile } from '@atelier/shared';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { aProfile } from '../../../test/fixtures';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { FollowButton } from './follow-button';

afterEach(() => vi.unstubAllGlobals());

const profile = { id: 5, nickname: 'sofia', name: 'Sofia', surname: 'Reis', followers_count: 2, following: false } as PublicProfile;

describe('follow button', () => {
  it('shows the follower count and follows', async () => {
    const calls = fakeApi({
      'GET /api/is-auth': () => jsonAnswer(200, { status: 'OK', payload: { authenticated: true } }),
      'GET /api/user/profile': () => okAnswer(aProfile({ surname: 'C' })),
      'POST /api/creators/sofia/follow': () => okAnswer({ nickname: 'sofia', following: true, followers_count: 3 }),
    });
    const { queryClient } = renderWithApp(<FollowButton profile={profile} profileKey={['public-profile', 'sofia']} />);
    queryClient.setQueryData(['public-profile', 'sofia'], profile);
    expect(screen.getByText('2 followers')).toBeTruthy();
    const follow = await screen.findByRole('button', { name: 'Follow' });
    await waitFor(() => expect((follow as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(follow);
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/creators/sofia/follow')).toBe(true));
    await waitFor(() => expect(queryClient.getQueryData<PublicProfile>(['public-profile', 'sofia'])?.followers_count).toBe(3));
  });
});
