import { ApiError, apiResponse } from '../../../lib/api-client';

/** The file name from Content-Disposition (RFC 6266: filename* first). */
export function fileNameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      /* fall through to the plain name */
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(disposition);
  return plain?.[1]?.trim() || fallback;
}

/**
 * GET /api/user/media/download as a blob, saved under the header's file name (SPEC §7). A failure
 * throws an ApiError with the server's message.
 */
export async function downloadFile(url: string, fallbackName = 'download'): Promise<string> {
  // A file, not JSON: the raw response is saved (a JSON answer here is the server's error).
  const res = await apiResponse(url);
  const contentType = res.headers.get('content-type') ?? '';
  if (contentType.includes('application/json')) {
    const data = await res.json().catch(() => null);
    throw new ApiError(data?.message ?? 'An error occurred during download', res.status);
  }
  return saveAnswer(res, fallbackName);
}

/** Saves a file answer in the browser under the header's file name; returns that name. */
export async function saveAnswer(res: Response, fallbackName: string): Promise<string> {
  const blob = await res.blob();
  const name = fileNameOf(res.headers.get('content-disposition'), fallbackName);
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
  return name;
}
