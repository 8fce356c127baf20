import type { ChangePasswordInput, UpdateProfileInput } from '@atelier/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, currentLanguage, ensureCsrfCookie } from '../../../lib/api-client';
import { type ApiAnswer, contract, envelopeOf, payloadOf } from '../../../lib/api-contract';
import { readCookie } from '../../../lib/cookies';
import { type AuthState, authKey } from '../../auth';

type ProfileAnswer = ApiAnswer<'/api/user/profile', 'put'>;

/** SPEC §4: the profile is reloaded after a profile update or an avatar upload. */
function useStoreProfile() {
  const queryClient = useQueryClient();
  return (answer: ProfileAnswer) => {
    queryClient.setQueryData<AuthState>(authKey, { authenticated: true, user: answer.payload });
    void queryClient.invalidateQueries({ queryKey: authKey });
  };
}

export function useUpdateProfile() {
  const store = useStoreProfile();
  return useMutation({
    mutationFn: (input: UpdateProfileInput) => envelopeOf(contract.PUT('/api/user/profile', { body: input })),
    onSuccess: store,
  });
}

export const useChangePassword = () =>
  useMutation({ mutationFn: (input: ChangePasswordInput) => envelopeOf(contract.POST('/api/user/change-password', { body: input })) });

export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => envelopeOf(contract.DELETE('/api/user/delete', { body: { password } })),
    onSuccess: () => {
      queryClient.setQueryData<AuthState>(authKey, { authenticated: false, user: null });
    },
  });
}

/** Uploads with XMLHttpRequest, the one browser API that reports upload progress (so not through the typed client). */
export function uploadAvatar(file: File, onProgress: (percent: number) => void): Promise<ApiAnswer<'/api/user/upload-avatar', 'post'>> {
  return ensureCsrfCookie().then(
    () =>
      new Promise<ApiAnswer<'/api/user/upload-avatar', 'post'>>((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open('POST', '/api/user/upload-avatar');
        xhr.withCredentials = true;
        xhr.setRequestHeader('Accept', 'application/json');
        xhr.setRequestHeader('X-XSRF-TOKEN', readCookie('XSRF-TOKEN') ?? '');
        xhr.setRequestHeader('X-Frontend-Language', currentLanguage());
        xhr.upload.onprogress = (e) => {
          if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
        };
        xhr.onerror = () => reject(new ApiError('Could not connect to the server. Please try again later.', 0));
        xhr.onload = () => {
          let data: { status?: string; message?: string; errors?: Record<string, string[]> } = {};
          try {
            data = JSON.parse(xhr.responseText);
          } catch {
            /* not JSON */
          }
          if (xhr.status === 200 && data.status === 'OK') resolve(data as ApiAnswer<'/api/user/upload-avatar', 'post'>);
          else reject(new ApiError(data.errors?.avatar?.[0] ?? data.message ?? 'Failed to upload avatar.', xhr.status, data.errors ?? {}));
        };
        const form = new FormData();
        form.append('avatar', file);
        xhr.send(form);
      }),
  );
}

export function useUploadAvatar() {
  const store = useStoreProfile();
  return useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress: (p: number) => void }) => uploadAvatar(file, onProgress),
    onSuccess: store,
  });
}

export const usePublicProfile = (idOrNickname: string) =>
  useQuery({
    queryKey: ['public-profile', idOrNickname],
    enabled: idOrNickname !== '',
    queryFn: () => payloadOf(contract.GET('/api/user/public-profile/{id}', { params: { path: { id: idOrNickname } } })),
  });
