import { vi } from 'vitest';

export type SentUpload = { method: string; url: string; headers: Record<string, string>; form: FormData };
type Answer = { status: number; body: unknown };

/**
 * Stands in for XMLHttpRequest, which the offer upload uses for its progress events: each send
 * reports half the bytes sent, waits for `answer` (a test may hold it to look at the progress bar),
 * then answers with its status and JSON body. Returns the uploads sent.
 */
export function fakeUpload(answer: (sent: SentUpload) => Answer | Promise<Answer>) {
  const sent: SentUpload[] = [];
  class FakeXhr {
    status = 0;
    responseText = '';
    withCredentials = false;
    upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    private request = { method: '', url: '', headers: {} as Record<string, string> };
    open(method: string, url: string) {
      this.request.method = method;
      this.request.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.request.headers[name] = value;
    }
    send(form: FormData) {
      const upload = { ...this.request, form };
      sent.push(upload);
      void (async () => {
        await Promise.resolve();
        this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
        const { status, body } = await answer(upload);
        this.status = status;
        this.responseText = JSON.stringify(body);
        this.onload?.();
      })();
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}
