import { createHmac, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';

/**
 * Product views (issue 20). A view is counted when a product's info is served (the product page's
 * server render asks the same route in-process), at most once per visitor, product and UTC day.
 *
 * No write per request: a view is noted in memory and the notes are written every few seconds by one
 * statement, which inserts the visitors' hashes (a repeat is ignored by the key: insert ... on conflict
 * do nothing) and adds what was new to the day's count. The visitor is their address and user agent
 * (issue 31 item 2: no cookie, so no consent is needed, and signing in does not make a second visitor),
 * hashed with the day's random salt and the product; salts and hashes go once the day is over: nothing
 * stored names a person.
 *
 * A purchase from the balance is a view too: whoever bought a work saw it, even when their browser was
 * not counted (an automated one, a buy straight from a card): a sale never sits beside 0 views.
 */

/** How often a process writes the views it noted. */
export const VIEWS_FLUSH_MS = 5_000;
/** Notes kept at most between two writes; past that a view waits for the next request's day. */
const MAX_PENDING = 50_000;

/** Crawlers, link previews, monitors, scripts and automated browsers: never counted. */
const BOT =
  /bot\b|bot\/|crawl|spider|slurp|bingpreview|facebookexternalhit|embedly|preview|whatsapp|telegram|discord|slack|skype|lighthouse|pagespeed|headless|phantomjs|puppeteer|playwright|selenium|curl|wget|python|java\/|go-http-client|okhttp|axios|node-fetch|undici|libwww|httpclient|scrapy|ahrefs|semrush|mj12|yandex|baidu|petalbot|bytespider|gptbot|ccbot|monitor|uptime|pingdom/i;

/** True for a request that is not a person's browser: a known bot, or no user agent at all. */
export function isBot(userAgent: string | undefined): boolean {
  return !userAgent || userAgent.length < 8 || BOT.test(userAgent);
}

/** Today as a UTC date, YYYY-MM-DD. */
export function utcDay(at = new Date()): string {
  return at.toISOString().slice(0, 10);
}

type Note = { day: string; productId: number; who: string };

export type ViewCounter = {
  /** Notes one view of the product by this request's visitor, unless a bot or the product's own author. */
  record(request: FastifyRequest, product: { id: number; authorId: number }): void;
  /** Notes that this request's visitor bought these products: a view each (the same visitor's page view is not counted twice). */
  recordPurchase(request: FastifyRequest, productIds: number[]): void;
  /** Writes the notes taken so far. */
  flush(): Promise<void>;
};

/** Who a visitor is, before hashing: their address and browser, never a cookie. */
const visitorOf = (request: FastifyRequest) => `${request.ip}|${request.headers['user-agent'] ?? ''}`;

function createViewCounter(db: Db): ViewCounter {
  let pending = new Map<string, Note>();
  const salts = new Map<string, string>();
  let writing: Promise<void> = Promise.resolve();

  function note(productId: number, who: string) {
    if (pending.size >= MAX_PENDING) return;
    const day = utcDay();
    pending.set(`${day}|${productId}|${who}`, { day, productId, who });
  }

  async function saltOf(day: string): Promise<string> {
    const known = salts.get(day);
    if (known) return known;
    await db.execute(sql`insert into view_salts (day, salt) values (${day}::date, ${randomBytes(16).toString('hex')}) on conflict (day) do nothing`);
    const rows = rowsOf(await db.execute(sql`select salt from view_salts where day = ${day}::date`)) as { salt: string }[];
    const salt = rows[0]!.salt;
    if (salts.size > 4) salts.clear();
    salts.set(day, salt);
    return salt;
  }

  async function write(notes: Note[]) {
    const rows: { day: string; product_id: number; visitor: string }[] = [];
    for (const n of notes) {
      const salt = await saltOf(n.day);
      rows.push({
        day: n.day,
        product_id: n.productId,
        visitor: createHmac('sha256', salt).update(`${n.who}|${n.productId}`).digest('base64url').slice(0, 22),
      });
    }
    await db.execute(sql`
      with seen as (
        insert into product_view_visitors (day, product_id, visitor)
        select r.day, r.product_id, r.visitor
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(day date, product_id bigint, visitor text)
        where exists (select 1 from products p where p.id = r.product_id)
        on conflict do nothing
        returning day, product_id
      )
      insert into product_views (product_id, day, views)
      select product_id, day, count(*)::int from seen group by product_id, day
      on conflict (product_id, day) do update set views = product_views.views + excluded.views`);
  }

  return {
    record(request, product) {
      if (isBot(request.headers['user-agent'])) return;
      if (request.session?.userId != null && request.session.userId === product.authorId) return;
      note(product.id, visitorOf(request));
    },
    recordPurchase(request, productIds) {
      for (const id of productIds) note(id, visitorOf(request));
    },
    flush() {
      // One write at a time, in order: a flush waits for the one before it.
      writing = writing.then(async () => {
        if (pending.size === 0) return;
        const notes = [...pending.values()];
        pending = new Map();
        await write(notes);
      });
      return writing;
    },
  };
}

const counters = new WeakMap<Db, ViewCounter>();

/** The process's view counter for this database handle. */
export function viewCounterOf(db: Db): ViewCounter {
  let counter = counters.get(db);
  if (!counter) {
    counter = createViewCounter(db);
    counters.set(db, counter);
  }
  return counter;
}

/** Writes the noted views every VIEWS_FLUSH_MS, and a last time when the app closes. */
export function startViewFlushing(db: Db, log: FastifyBaseLogger, onClose: (hook: () => Promise<void>) => void) {
  const counter = viewCounterOf(db);
  const flush = () =>
    counter.flush().catch((err: unknown) => {
      log.warn({ err }, 'views not written');
    });
  const timer = setInterval(flush, VIEWS_FLUSH_MS);
  timer.unref();
  onClose(async () => {
    clearInterval(timer);
    await flush();
  });
}

/** Yesterday's and older salts and visitor hashes have done their work: the day's counts are written. */
export async function purgeOldViewVisitors(db: Db): Promise<number> {
  const gone = rowsOf(
    await db.execute(sql`
    with v as (delete from product_view_visitors where day < (now() at time zone 'UTC')::date - 1 returning 1),
    s as (delete from view_salts where day < (now() at time zone 'UTC')::date - 1 returning 1)
    select (select count(*) from v) + (select count(*) from s) as n`),
  );
  return Number(gone[0]?.n ?? 0);
}

/** The rows of a raw statement's result (pg and PGlite both answer `{ rows }`). */
export function rowsOf(result: unknown): Record<string, unknown>[] {
  return (result as { rows: Record<string, unknown>[] }).rows;
}
