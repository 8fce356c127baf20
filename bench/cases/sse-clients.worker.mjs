// The SSE bench's clients, on their own thread: they parse 5,000 streams without taking the server's
// event loop, and the server thread's heap is measured without theirs. Plain JavaScript so the worker
// needs no TypeScript loader.
//
// From the main thread: {type: 'open', port, cookies} opens one stream per cookie, then answers
// {type: 'ready', open} once every stream said `ready` (or {type: 'failed', error}); every
// `new_message` event is posted as {type: 'event', chatId, at} (at: absolute ms, timeOrigin + now);
// {type: 'close'} ends every stream.
import http from 'node:http';
import { parentPort } from 'node:worker_threads';

const requests = [];
const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });

function openStream(port, cookie) {
  return new Promise((resolve, reject) => {
    let buffer = '';
    let ready = false;
    const req = http.get({ host: '127.0.0.1', port, path: '/api/events', agent, headers: { cookie } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`events answered ${res.statusCode}`));
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        const at = performance.timeOrigin + performance.now();
        buffer += chunk;
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          cut = buffer.indexOf('\n\n');
          const data = block.split('\n').find((l) => l.startsWith('data:'));
          if (!data) continue;
          const event = JSON.parse(data.slice(5));
          if (event.kind === 'ready' && !ready) {
            ready = true;
            resolve();
          } else if (event.kind === 'new_message' && event.chatId !== null) parentPort.postMessage({ type: 'event', chatId: event.chatId, at });
        }
      });
      res.on('end', () => {
        if (!ready) reject(new Error('the stream ended before ready'));
      });
    });
    req.on('error', reject);
    requests.push(req);
  });
}

parentPort.on('message', async (msg) => {
  if (msg.type === 'open') {
    try {
      // In waves, as clients arrive over time, so the listen backlog never overflows.
      const WAVE = 250;
      for (let i = 0; i < msg.cookies.length; i += WAVE) {
        await Promise.all(msg.cookies.slice(i, i + WAVE).map((cookie) => openStream(msg.port, cookie)));
      }
      parentPort.postMessage({ type: 'ready', open: requests.length });
    } catch (err) {
      parentPort.postMessage({ type: 'failed', error: String(err?.message ?? err) });
    }
  } else if (msg.type === 'close') {
    for (const req of requests) req.destroy();
    parentPort.postMessage({ type: 'closed' });
  }
});
