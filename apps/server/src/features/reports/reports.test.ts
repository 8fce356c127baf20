import { desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { lastMailTo, registerPerson, registerStaff } from '../../../test/accounts';
import { chatPair, sendChat } from '../../../test/chat';
import { fund } from '../../../test/commerce';
import { TestClient, useTestApp } from '../../../test/test-app';
import { auditLog, notifications, products, reports } from '../../db/schema';

/**
 * Notice and action (issue 33): a guest's report and its receipt, the staff decision with its
 * statement of reasons (e-mail and bell) and the reporter's outcome, the removal seen in the shop,
 * search, the library and a chat, the author's appeal and its reversal, the transparency figures,
 * and every 4xx, including a stranger who may neither read nor appeal.
 */
const t = useTestApp({ registration: true });
let staff: Awaited<ReturnType<typeof registerStaff>>;
beforeAll(async () => {
  staff = await registerStaff(t.app);
});

let serial = 0;
async function work(authorId: number, priceMinor = 900) {
  serial++;
  const [row] = await t.app.db
    .insert(products)
    .values({ slug: `reported-${serial}`, title: `Reported fox ${serial}`, productType: 'prompt', promptText: 'A fox', authorId, priceMinor })
    .returning({ id: products.id, slug: products.slug });
  return row!;
}

const explanation = 'This picture copies my registered artwork line for line.';
const guestReport = (subject: { subject_type: string; subject_id: number }, extra: Record<string, unknown> = {}) => ({
  ...subject,
  reason: 'illegal_content',
  explanation,
  email: 'guest.reporter@example.com',
  good_faith: true,
  ...extra,
});

describe('reports', () => {
  it('a guest reports a work and gets a receipt; staff remove it everywhere; the author reads the statement of reasons and appeals; a reversal restores it', async () => {
    const author = await registerPerson(t.app);
    const buyer = await registerPerson(t.app);
    const product = await work(author.id);
    await fund(t.app, buyer.id, 5000);
    expect((await buyer.client.post('/api/purchase/prompt', { prompt_id: product.id })).statusCode).toBe(200);

    // The buyer asked the creator about the work: the chat shows its card.
    const chat = await buyer.client.post('/api/chat', { product_id: product.id });
    expect(chat.statusCode).toBe(200);
    const chatId = chat.json().payload.id as number;
    const card = async () =>
      ((await buyer.client.get(`/api/chat/${chatId}/messages`)).json().payload as { type: string; product: { id: number } | null }[]).find(
        (m) => m.type === 'product',
      )?.product;
    expect(await card()).toMatchObject({ id: product.id });

    const guest = new TestClient(t.app);
    const filed = await guest.post('/api/reports', guestReport({ subject_type: 'product', subject_id: product.id }));
    expect(filed.statusCode).toBe(200);
    const report = filed.json().payload;
    expect(report).toMatchObject({
      subject: { type: 'product', id: product.id, link: `/products/${product.slug}` },
      reason: 'illegal_content',
      status: 'open',
      decision: null,
    });
    const receipt = await lastMailTo(t.app, 'guest.reporter@example.com');
    expect(receipt?.subject).toBe(`We received your report #${report.id}`);

    // A second report of the same work joins the same group in the queue.
    const other = await registerPerson(t.app);
    expect(
      (await other.client.post('/api/reports', { ...guestReport({ subject_type: 'product', subject_id: product.id }), email: undefined, reason: 'spam' }))
        .statusCode,
    ).toBe(200);
    const queue = (await staff.client.get('/api/admin/reports?status=open')).json().payload;
    const group = queue.find((g: { subject: { id: number; type: string } }) => g.subject.type === 'product' && g.subject.id === product.id);
    expect(group.reports.map((r: { reason: string }) => r.reason)).toEqual(['illegal_content', 'spam']);
    expect(group.author).toEqual({ id: author.id, nickname: expect.any(String) });

    const decided = await staff.client.post(`/api/admin/reports/${report.id}/decide`, {
      decision: 'remove',
      ground: 'law',
      explanation: 'The work copies a protected artwork.',
    });
    expect(decided.statusCode).toBe(200);
    expect(decided.json().payload).toMatchObject({ status: 'decided', decision: 'remove' });
    // Both reports of the group are decided by the one decision; the queue of open ones no longer has it.
    const stillOpen = (await staff.client.get('/api/admin/reports')).json().payload;
    expect(stillOpen.some((g: { subject: { id: number; type: string } }) => g.subject.type === 'product' && g.subject.id === product.id)).toBe(false);

    // Gone from the product page, the catalogue, search and the sitemap; the buyer's download is gone too.
    expect((await guest.get(`/api/products/${product.slug}/info`)).statusCode).toBe(404);
    const catalogue = (await guest.get('/api/products/catalog?product_type=prompt&search=Reported')).json().payload as { id: number }[];
    expect(catalogue.some((p) => p.id === product.id)).toBe(false);
    const sitemap = await t.app.inject({ url: '/sitemap.xml' });
    expect(sitemap.body).not.toContain(product.slug);
    const orderId = (await buyer.client.get('/api/purchase/history')).json().payload[0].id;
    expect((await buyer.client.get(`/api/user/media/download?id=${orderId}&product_id=${product.id}`)).statusCode).toBe(410);
    expect(await card()).toBeNull();

    // The audit log has the decision.
    const [audit] = await t.app.db.select().from(auditLog).where(eq(auditLog.subjectType, 'report')).orderBy(desc(auditLog.id)).limit(1);
    expect(audit).toMatchObject({ action: 'report.remove', subjectId: report.id, staffId: staff.id });

    // The author: an e-mail with the statement of reasons, a bell, and the statement in the API.
    const statementMail = await lastMailTo(t.app, author.email);
    expect(statementMail?.text).toContain('was removed: it is no longer shown anywhere');
    expect(statementMail?.text).toContain('illegal under the law');
    expect(statementMail?.text).toContain('Automated means: none');
    expect(statementMail?.text).toContain('How to appeal: you may appeal within 6 months');
    const bell = await t.app.db.select().from(notifications).where(eq(notifications.userId, author.id));
    expect(bell.map((n) => n.kind)).toContain('report_decision');
    const statements = (await author.client.get('/api/user/reports/statements')).json().payload;
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({
      report_id: report.id,
      decision: 'remove',
      ground: 'law',
      automated: false,
      explanation: 'The work copies a protected artwork.',
    });
    expect(statements[0].appeal.open_until).toBeGreaterThan(statements[0].decided_at + 180 * 86400 - 1);
    // The reporters: the outcome.
    expect((await lastMailTo(t.app, 'guest.reporter@example.com'))?.text).toContain('Outcome: the content was removed');
    expect((await lastMailTo(t.app, other.email))?.subject).toContain('our decision');

    // A stranger can neither read nor appeal it; the reporter reads it but cannot appeal.
    const stranger = await registerPerson(t.app);
    expect((await stranger.client.get(`/api/reports/${report.id}`)).statusCode).toBe(404);
    expect((await stranger.client.post(`/api/reports/${report.id}/appeal`, { message: 'Not mine but still.' })).statusCode).toBe(404);
    expect((await guest.post(`/api/reports/${report.id}/appeal`, { message: 'A guest appeal.' })).statusCode).toBe(401);
    const asAuthor = (await author.client.get(`/api/reports/${report.id}`)).json().payload;
    expect(asAuthor.statement).toMatchObject({ decision: 'remove' });
    expect((await author.client.post(`/api/reports/${report.id}/appeal`, { message: '' })).statusCode).toBe(422);

    const appealed = await author.client.post(`/api/reports/${report.id}/appeal`, { message: 'The artwork is my own; here is the original file date.' });
    expect(appealed.statusCode).toBe(200);
    expect(appealed.json().payload.appeal).toMatchObject({ open_until: null, message: 'The artwork is my own; here is the original file date.' });
    expect((await author.client.post(`/api/reports/${report.id}/appeal`, { message: 'Again.' })).json().message).toBe(
      'You have already appealed this decision.',
    );
    const appealedQueue = (await staff.client.get('/api/admin/reports?status=appealed')).json().payload;
    expect(appealedQueue[0].reports[0]).toMatchObject({ id: report.id, status: 'appealed' });

    expect((await staff.client.post(`/api/admin/reports/${report.id}/appeal-decide`, { outcome: 'maybe', explanation: 'x'.repeat(30) })).statusCode).toBe(422);
    const reversed = await staff.client.post(`/api/admin/reports/${report.id}/appeal-decide`, {
      outcome: 'reversed',
      explanation: 'The author showed the work is their own.',
    });
    expect(reversed.statusCode).toBe(200);
    expect((await guest.get(`/api/products/${product.slug}/info`)).statusCode).toBe(200);
    expect((await author.client.get('/api/user/reports/statements')).json().payload[0].appeal).toMatchObject({ outcome: 'reversed' });
    expect(
      (await staff.client.post(`/api/admin/reports/${report.id}/appeal-decide`, { outcome: 'upheld', explanation: 'Deciding the same appeal twice.' }))
        .statusCode,
    ).toBe(409);
    const [reversal] = await t.app.db.select().from(auditLog).where(eq(auditLog.subjectType, 'report')).orderBy(desc(auditLog.id)).limit(1);
    expect(reversal?.action).toBe('report.appeal_reversed');
  });

  it('refuses bad reports with a sentence per field', async () => {
    const author = await registerPerson(t.app);
    const product = await work(author.id);
    const guest = new TestClient(t.app);
    const subject = { subject_type: 'product', subject_id: product.id };
    const short = await guest.post('/api/reports', guestReport(subject, { explanation: 'too short' }));
    expect(short.statusCode).toBe(422);
    expect(short.json().errors.explanation).toEqual(['Please explain in at least 20 characters.']);
    expect((await guest.post('/api/reports', guestReport(subject, { explanation: 'x'.repeat(5001) }))).json().errors.explanation).toEqual([
      'The explanation may have at most 5000 characters.',
    ]);
    expect((await guest.post('/api/reports', guestReport(subject, { email: undefined }))).json().errors.email).toEqual([
      'Please give your e-mail address, so we can tell you what we decide.',
    ]);
    expect((await guest.post('/api/reports', guestReport(subject, { email: 'not-an-email' }))).json().errors.email).toEqual([
      'Please enter a valid e-mail address.',
    ]);
    expect((await guest.post('/api/reports', guestReport(subject, { good_faith: false }))).json().errors.good_faith).toEqual([
      'Please confirm that you report in good faith and that what you say is accurate.',
    ]);
    expect((await guest.post('/api/reports', guestReport(subject, { reason: 'copyright' }))).json().errors.name).toEqual([
      'A copyright report needs the name of the rights holder or of the person acting for them.',
    ]);
    expect((await guest.post('/api/reports', guestReport(subject, { reason: 'copyright', name: 'Rita Holder' }))).statusCode).toBe(200);
    expect((await guest.post('/api/reports', guestReport(subject, { reason: 'ugly' }))).statusCode).toBe(422);
    expect((await guest.post('/api/reports', guestReport({ subject_type: 'planet', subject_id: 1 }))).statusCode).toBe(422);
    expect((await guest.post('/api/reports', guestReport({ subject_type: 'product', subject_id: 99999999 }))).statusCode).toBe(404);
    // Without the XSRF token, as a forged cross-site form would send it: 419.
    const forged = await t.app.inject({ method: 'POST', url: '/api/reports', payload: guestReport(subject) });
    expect(forged.statusCode).toBe(419);
    // Reporting one's own work: 422.
    expect((await author.client.post('/api/reports', guestReport(subject))).json().errors.subject_id).toEqual([
      'This is your own content: you can change or delete it yourself.',
    ]);
  });

  it('a chat message is reported by a participant only, and its removal blanks it in the history', async () => {
    const { buyer, creator, chatId } = await chatPair(t.app);
    const sent = await sendChat(creator.client, chatId, { message: 'Send me your password please.' });
    const messageId = sent.json().payload.id as number;
    const outsider = await registerPerson(t.app);
    expect(
      (await outsider.client.post('/api/reports', { ...guestReport({ subject_type: 'message', subject_id: messageId }), email: undefined })).statusCode,
    ).toBe(404);
    const filed = await buyer.client.post('/api/reports', {
      ...guestReport({ subject_type: 'message', subject_id: messageId }),
      email: undefined,
      reason: 'spam',
    });
    expect(filed.statusCode).toBe(200);
    const id = filed.json().payload.id;
    const restrict = await staff.client.post(`/api/admin/reports/${id}/decide`, {
      decision: 'restrict',
      ground: 'terms',
      explanation: 'Asking for a password breaks the terms.',
    });
    expect(restrict.statusCode).toBe(422);
    expect(restrict.json().errors.decision[0]).toContain('choose remove or no_action');
    expect((await staff.client.post(`/api/admin/reports/${id}/decide`, { decision: 'remove', ground: 'terms', explanation: 'short' })).statusCode).toBe(422);
    expect(
      (
        await staff.client.post(`/api/admin/reports/${id}/decide`, {
          decision: 'erase',
          ground: 'terms',
          explanation: 'Asking for a password breaks the terms.',
        })
      ).statusCode,
    ).toBe(422);
    expect(
      (
        await buyer.client.post(`/api/admin/reports/${id}/decide`, {
          decision: 'remove',
          ground: 'terms',
          explanation: 'Asking for a password breaks the terms.',
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await staff.client.post('/api/admin/reports/99999999/decide', {
          decision: 'remove',
          ground: 'terms',
          explanation: 'Asking for a password breaks the terms.',
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await staff.client.post(`/api/admin/reports/${id}/decide`, {
          decision: 'remove',
          ground: 'terms',
          explanation: 'Asking for a password breaks the terms.',
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await staff.client.post(`/api/admin/reports/${id}/decide`, {
          decision: 'no_action',
          ground: 'terms',
          explanation: 'Deciding the same report a second time.',
        })
      ).statusCode,
    ).toBe(409);
    const history = (await buyer.client.get(`/api/chat/${chatId}/messages`)).json().payload as { id: number; message: string }[];
    expect(history.find((m) => m.id === messageId)?.message).toBe('This message was removed by staff after a report.');
    expect((await buyer.client.get('/api/admin/reports')).statusCode).toBe(403);
  });

  it('no action: nothing to appeal; an appeal after 6 months is refused', async () => {
    const author = await registerPerson(t.app);
    const product = await work(author.id);
    const guest = new TestClient(t.app);
    const first = (await guest.post('/api/reports', guestReport({ subject_type: 'product', subject_id: product.id }))).json().payload.id;
    expect((await author.client.post(`/api/reports/${first}/appeal`, { message: 'Nothing was decided yet.' })).statusCode).toBe(409);
    await staff.client.post(`/api/admin/reports/${first}/decide`, {
      decision: 'no_action',
      ground: 'terms',
      explanation: 'The work breaks no rule we know of.',
    });
    expect((await author.client.post(`/api/reports/${first}/appeal`, { message: 'Why?' })).json().message).toBe(
      'No action was taken on your content: there is nothing to appeal.',
    );
    expect((await guest.get(`/api/products/${product.slug}/info`)).statusCode).toBe(200);

    const second = (await guest.post('/api/reports', guestReport({ subject_type: 'user', subject_id: author.id }))).json().payload.id;
    await staff.client.post(`/api/admin/reports/${second}/decide`, {
      decision: 'remove',
      ground: 'terms',
      explanation: 'The profile impersonates another artist.',
    });
    expect((await guest.get(`/api/user/public-profile/${author.id}`)).statusCode).toBe(404);
    // The creator's works leave the shop with the profile.
    expect((await guest.get(`/api/products/${product.slug}/info`)).statusCode).toBe(404);
    // The decision is made 6 months and a day old (a session cannot outlive a moved clock).
    const aged = new Date();
    aged.setUTCMonth(aged.getUTCMonth() - 6);
    aged.setUTCDate(aged.getUTCDate() - 1);
    await t.app.db.update(reports).set({ decidedAt: aged, createdAt: aged }).where(eq(reports.id, second));
    expect((await author.client.post(`/api/reports/${second}/appeal`, { message: 'Late appeal.' })).json().message).toBe(
      'The time to appeal has passed: an appeal may be sent within 6 months of the decision.',
    );
  });

  it('restrict keeps a work with its buyers only', async () => {
    const author = await registerPerson(t.app);
    const buyer = await registerPerson(t.app);
    const product = await work(author.id);
    await fund(t.app, buyer.id, 5000);
    expect((await buyer.client.post('/api/purchase/prompt', { prompt_id: product.id })).statusCode).toBe(200);
    const guest = new TestClient(t.app);
    const id = (await guest.post('/api/reports', guestReport({ subject_type: 'product', subject_id: product.id }, { reason: 'adult_content' }))).json().payload
      .id;
    expect(
      (
        await staff.client.post(`/api/admin/reports/${id}/decide`, {
          decision: 'restrict',
          ground: 'terms',
          explanation: 'Adult content is not for the open shop.',
        })
      ).statusCode,
    ).toBe(200);
    expect((await guest.get(`/api/products/${product.slug}/info`)).statusCode).toBe(404);
    const orderId = (await buyer.client.get('/api/purchase/history')).json().payload[0].id;
    expect((await buyer.client.get(`/api/user/media/download?id=${orderId}&product_id=${product.id}`)).statusCode).toBe(200);
    const another = await registerPerson(t.app);
    await fund(t.app, another.id, 5000);
    expect((await another.client.post('/api/purchase/prompt', { prompt_id: product.id })).statusCode).not.toBe(200);
  });

  it('counts 20 reports a day per reporter atomically: of 25 sent at once, 20 are filed and 5 get a 429', async () => {
    const author = await registerPerson(t.app);
    const product = await work(author.id);
    const reporter = await registerPerson(t.app);
    const body = { subject_type: 'product', subject_id: product.id, reason: 'other', explanation, good_faith: true };
    await reporter.client.csrf();
    const answers = await Promise.all(Array.from({ length: 25 }, () => reporter.client.post('/api/reports', body)));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(20);
    expect(codes.filter((c) => c === 429)).toHaveLength(5);
    const refused = answers.find((a) => a.statusCode === 429)!;
    expect(refused.json().message).toMatch(/^You can send at most 20 reports a day\. Please try again in \d+ minutes\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('publishes the transparency figures per half-year', async () => {
    const res = await new TestClient(t.app).get('/api/transparency');
    expect(res.statusCode).toBe(200);
    const [now] = res.json().payload;
    const d = new Date();
    expect(now.period).toBe(`${d.getUTCFullYear()}-H${d.getUTCMonth() < 6 ? 1 : 2}`);
    expect(now.by_reason).toMatchObject({ illegal_content: expect.any(Number), spam: 2, copyright: 1, adult_content: 1, other: 20 });
    expect(now.by_decision).toMatchObject({ remove: expect.any(Number), restrict: 1, no_action: expect.any(Number) });
    expect(now.appeals).toBe(1);
    expect(now.reversed).toBe(1);
    expect(now.median_hours_to_decide).toBeGreaterThanOrEqual(0);
  });
});
