import http from 'node:http';
import type { TestClient } from './test-app';

export type LiveEvent = { id?: string; event: string; data: Record<string, unknown> };
export type EventStream = {
  events: LiveEvent[];
  status: number;
  /** Kept when the server ends the stream (a sign-out, a block, a shutdown). */
  ended: Promise<void>;
  close: () => void;
  /** The next event of this name after the one the previous call returned; fails after `withinMs` (5 s unless told). */
  next: (event: string, withinMs?: number) => Promise<LiveEvent>;
};

/** Opens GET /api/events on a listening server with the client's cookies and parses what arrives. */
export async function openStream(baseUrl: string, client: TestClient, headers: Record<string, string> = {}): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${baseUrl}/api/events`, { headers: { cookie: client.cookieHeader, ...headers } }, (res) => {
      let cursor = 0;
      const stream: EventStream = {
        events: [],
        status: res.statusCode ?? 0,
        ended: new Promise<void>((ok) => res.on('end', ok)),
        close: () => req.destroy(),
        next: (event, withinMs = 5000) =>
          new Promise((ok, fail) => {
            // Events are taken in order: each call looks past the one the previous call returned.
            const timer = setTimeout(() => {
              res.off('data', check);
              fail(new Error(`no ${event} event within ${withinMs / 1000} s`));
            }, withinMs);
            const check = () => {
              const at = stream.events.findIndex((e, i) => i >= cursor && e.event === event);
              if (at < 0) return false;
              cursor = at + 1;
              clearTimeout(timer);
              res.off('data', check);
              ok(stream.events[at]!);
              return true;
            };
            if (!check()) res.on('data', check);
          }),
      };
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const fields = Object.fromEntries(
            block
              .split('\n')
              .filter((l) => l && !l.startsWith(':'))
              .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]),
          );
          if (fields.event) stream.events.push({ id: fields.id, event: fields.event, data: JSON.parse(fields.data ?? '{}') });
          cut = buffer.indexOf('\n\n');
        }
      });
      resolve(stream);
    });
    req.on('error', reject);
  });
}
