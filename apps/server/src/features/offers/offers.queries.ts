import { type AdminOffer, minorToAmount, type Offer, type OfferStatus, stylesInKeywords } from '@atelier/shared';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { offerEvents, offers, products, productTags, tags, users } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { mailHtml, sendMail } from '../../lib/mail';
import { publicUrl } from '../../lib/storage';
import { slugify } from '../../lib/text';
import { notifyFollowersOfNewWork } from '../follows';
import { notify } from '../notifications';
import { canTransition, illegalMoveMessage, type OfferActor } from './offer-states';

export type OfferRow = typeof offers.$inferSelect;

const NOT_YOURS = 'This offer does not exist.';

/** SPEC §3 Offer shape. Prices in EUR; `tags` are the chosen styles. */
/** `tiers`: the listed product's other licence prices (issue 34), EUR cents; shown on a listing only. */
export function toOffer(row: OfferRow, tiers?: { personalPriceMinor: number | null; extendedPriceMinor: number | null } | null): Offer {
  const tierPrice = (minor: number | null) => (minor === null ? null : minorToAmount(Number(minor)));
  return {
    ...(tiers && row.dealType === 'listing'
      ? { personal_price: tierPrice(tiers.personalPriceMinor), extended_price: tierPrice(tiers.extendedPriceMinor) }
      : {}),
    id: row.id,
    title: row.title,
    description: row.description,
    doc_type: row.docType === 'image' || row.docType === 'prompt' ? row.docType : 'other',
    doc_url: row.previewPath,
    imageUrl: publicUrl(row.previewPath),
    user_price: minorToAmount(row.userPriceMinor),
    service_price: row.servicePriceMinor === null ? null : minorToAmount(row.servicePriceMinor),
    currency: 'EUR',
    status: row.status as OfferStatus,
    deal_type: row.dealType,
    status_note: row.statusNote,
    created_at: Math.floor(row.createdAt.getTime() / 1000),
    tags: stylesInKeywords(row.keywords).map((name) => ({ name })),
    product_id: row.productId,
  };
}

export async function listUserOffers(db: Db, userId: number): Promise<Offer[]> {
  const rows = await db
    .select({ offer: offers, personalPriceMinor: products.personalPriceMinor, extendedPriceMinor: products.extendedPriceMinor })
    .from(offers)
    .leftJoin(products, eq(products.id, offers.productId))
    .where(eq(offers.userId, userId))
    .orderBy(desc(offers.id));
  return rows.map((r) => toOffer(r.offer, r));
}

/** The creator's own offer, or 404 (another user's offer is not revealed to exist). */
export async function findOwnOffer(db: Db, userId: number, offerId: number): Promise<OfferRow> {
  const [row] = await db
    .select()
    .from(offers)
    .where(and(eq(offers.id, offerId), eq(offers.userId, userId)));
  if (!row) throw notFound(NOT_YOURS);
  return row;
}

const MAIL_TEXT: Record<OfferStatus, (o: OfferRow, note: string) => string[]> = {
  pending: () => ['We have received your offer. We will contact you by e-mail within 3 business days.'],
  offer: (o, note) => [
    `We would like to buy your work for €${minorToAmount(o.servicePriceMinor ?? 0).toFixed(2)}.`,
    ...(note ? [note] : []),
    'Open My projects to accept or decline.',
  ],
  approved: (o, note) =>
    o.dealType === 'listing'
      ? ['Your work is listed in the shop. You earn your share of each sale; see the Earnings tab.']
      : note
        ? [`Your payout could not be completed: ${note}`, 'Please check your payment details and try again.']
        : ['You accepted our offer. Enter your payment details in My projects to be paid.'],
  declined: (_o, note) => ['Your offer was declined.', ...(note ? [`Reason: ${note}`] : [])],
  declined_by_service: (_o, note) => ['We are sorry: we decided not to buy this work.', ...(note ? [`Reason: ${note}`] : [])],
  declined_by_user: () => ['You declined our offer. The deal is closed.'],
  payout_processing: () => ['Your payout is being processed.'],
  paid: () => ['Deal is completed. You will receive your funds within 3-5 business days to your card (5 business days by bank transfer).'],
  unlisted: () => ['Your work is no longer listed in the shop. You can list it again from My projects.'],
};

/** The creator's bell for a move they did not make, as a sentence (never a raw state). */
function offerNotice(title: string, from: OfferStatus, to: OfferStatus, note: string): string {
  const work = `"${title}"`;
  switch (to) {
    case 'offer':
      return `We made an offer for ${work}. Open My projects to accept or decline it.`;
    case 'approved':
      if (from === 'pending') return `${work} is approved and listed in the shop.`;
      return from === 'payout_processing'
        ? `Your payout for ${work} failed${note ? `: ${note}` : '.'} Check your payment details and request it again.`
        : `The deal for ${work} is agreed. Enter your payment details in My projects to be paid.`;
    case 'declined_by_service':
    case 'declined':
      return `We decided not to buy ${work}${note ? `: ${note}` : '.'}`;
    case 'declined_by_user':
      return `The offer for ${work} was declined.`;
    case 'payout_processing':
      return `Your payout for ${work} is being processed.`;
    case 'paid':
      return `Your payout for ${work} is paid.`;
    default:
      return `We received your offer ${work}.`;
  }
}

export type MoveOptions = {
  offerId: number;
  to: OfferStatus;
  actor: OfferActor;
  actorId?: number | null;
  note?: string;
  /** The creator making the move: another user's offer is a 404. */
  ownerId?: number;
  /** Further columns to set with the move (service price, product). */
  set?: Partial<Pick<OfferRow, 'servicePriceMinor' | 'productId' | 'userPriceMinor'>>;
  /** What the offer must look like for the move, beyond the table (else 409 with this message). */
  require?: (offer: OfferRow) => string | null;
};

/**
 * The one way an offer changes status. Inside the caller's transaction: locks the offer row, checks
 * the transition table (409 and nothing changes when the move is not allowed), writes the status,
 * the event (who, when, from, to, note) and the creator's e-mail.
 */
export async function moveOffer(tx: Db, opts: MoveOptions): Promise<OfferRow> {
  const [current] = await tx.select().from(offers).where(eq(offers.id, opts.offerId)).for('update');
  if (!current || (opts.ownerId !== undefined && current.userId !== opts.ownerId)) throw notFound(NOT_YOURS);
  const from = current.status as OfferStatus;
  if (!canTransition(from, opts.to, opts.actor, current.dealType)) throw new AppError('CONFLICT', illegalMoveMessage(from, opts.to));
  const refused = opts.require?.(current);
  if (refused) throw new AppError('CONFLICT', refused);
  const note = opts.note ?? '';
  const [updated] = await tx
    .update(offers)
    .set({
      status: opts.to,
      statusNote: note || (opts.to === 'approved' || opts.to === 'paid' ? null : current.statusNote),
      updatedAt: new Date(),
      ...opts.set,
    })
    .where(eq(offers.id, current.id))
    .returning();
  await tx.insert(offerEvents).values({ offerId: current.id, fromStatus: from, toStatus: opts.to, actor: opts.actor, actorId: opts.actorId ?? null, note });
  await mailCreator(tx, updated!, note);
  // The creator's bell: every move the creator did not make themself (staff, the payout provider).
  if (opts.actor !== 'creator') {
    const paid = opts.to === 'paid';
    await notify(tx, {
      userId: current.userId,
      kind: paid ? 'payout_paid' : 'offer_status',
      text: offerNotice(current.title.slice(0, 80), from, opts.to, note),
      link: '/dashboard',
      data: { offerId: current.id, status: opts.to },
    });
  }
  return updated!;
}

async function mailCreator(tx: Db, offer: OfferRow, note: string) {
  const [creator] = await tx.select({ email: users.email, name: users.name, deletedAt: users.deletedAt }).from(users).where(eq(users.id, offer.userId));
  if (!creator || creator.deletedAt) return;
  const lines = [`Hello ${creator.name},`, ...MAIL_TEXT[offer.status as OfferStatus](offer, note)];
  await sendMail(tx, {
    to: creator.email,
    subject: `Your offer "${offer.title.slice(0, 80)}": ${offer.status.replace(/_/g, ' ')}`,
    text: lines.join('\n\n'),
    html: mailHtml(lines),
  });
}

/** A new offer and its first event, with the confirmation e-mail, in one transaction. */
export async function insertOffer(tx: Db, values: typeof offers.$inferInsert): Promise<OfferRow> {
  const [row] = await tx.insert(offers).values(values).returning();
  await tx.insert(offerEvents).values({ offerId: row!.id, fromStatus: null, toStatus: 'pending', actor: 'creator', actorId: row!.userId });
  await mailCreator(tx, row!, '');
  return row!;
}

/**
 * On acceptance the work becomes a platform-owned product: author the creator, the original kept
 * private, the offer's preview, priced at what the platform paid, and a draft until staff set the
 * list price and publish it (PATCH /api/admin/products/{id}). The styles become its tags.
 */
export async function createProductFromOffer(tx: Db, offer: OfferRow, opts: { promptText?: string | null } = {}): Promise<number> {
  // A listing is the creator's own product, published at the agreed price; a buyout is the platform's draft.
  const listing = offer.dealType === 'listing';
  // A listing approved again after a price change (issue 19) keeps its product: published at the new price.
  if (listing && offer.productId !== null) {
    await tx
      .update(products)
      .set({ priceMinor: offer.servicePriceMinor ?? offer.userPriceMinor, status: 'published' })
      .where(eq(products.id, offer.productId));
    return offer.productId;
  }
  const prompt = offer.docType === 'prompt';
  const [product] = await tx
    .insert(products)
    .values({
      slug: `${slugify(offer.title, 80) || 'work'}-o${offer.id}`,
      title: offer.title,
      description: offer.description,
      // A text offered under Prompts is a prompt, never a doc (its text is what a buyer gets).
      productType: offer.docType === 'image' ? 'image' : prompt ? 'prompt' : 'doc',
      promptText: prompt ? (opts.promptText ?? '') : null,
      categoryId: offer.categoryId,
      authorId: offer.userId,
      priceMinor: offer.servicePriceMinor ?? offer.userPriceMinor,
      status: listing ? 'published' : 'draft',
      previewPath: offer.previewPath,
      originalPath: offer.originalPath,
      originalName: offer.fileName,
      fileMeta: offer.fileMeta,
      platformOwned: !listing,
    })
    .returning({ id: products.id, slug: products.slug, title: products.title, productType: products.productType, authorId: products.authorId });
  // A listing goes live now (issue 31 item 11): the creator's followers hear of it as of a published draft.
  if (listing) {
    const [author] = await tx.select({ nickname: users.nickname }).from(users).where(eq(users.id, offer.userId));
    await notifyFollowersOfNewWork(tx, { ...product!, authorNickname: author!.nickname });
  }
  const names = stylesInKeywords(offer.keywords);
  if (names.length) {
    await tx
      .insert(tags)
      .values(names.map((name) => ({ name })))
      .onConflictDoNothing({ target: tags.name });
    const tagRows = await tx.select({ id: tags.id }).from(tags).where(inArray(tags.name, names));
    await tx.insert(productTags).values(tagRows.map((t) => ({ productId: product!.id, tagId: t.id })));
  }
  return product!.id;
}

/** Back office list: oldest first (the review queue), with the creator and the history. */
export async function listOffersForStaff(db: Db, status?: OfferStatus): Promise<Omit<AdminOffer, 'file_url'>[]> {
  const rows = await db
    .select({ offer: offers, user: { id: users.id, nickname: users.nickname, email: users.email } })
    .from(offers)
    .innerJoin(users, eq(users.id, offers.userId))
    .where(status ? eq(offers.status, status) : sql`true`)
    .orderBy(asc(offers.createdAt), asc(offers.id))
    .limit(500);
  const ids = rows.map((r) => r.offer.id);
  const events = ids.length ? await db.select().from(offerEvents).where(inArray(offerEvents.offerId, ids)).orderBy(asc(offerEvents.id)) : [];
  return rows.map(({ offer, user }) => ({
    ...toOffer(offer),
    user,
    category_id: offer.categoryId,
    file_name: offer.fileName,
    file_type: offer.fileType,
    product_id: offer.productId,
    events: events
      .filter((e) => e.offerId === offer.id)
      .map((e) => ({ from: e.fromStatus, to: e.toStatus, by: e.actor, note: e.note, at: Math.floor(e.createdAt.getTime() / 1000) })),
  }));
}

export async function findOffer(db: Db, offerId: number): Promise<OfferRow> {
  const [row] = await db.select().from(offers).where(eq(offers.id, offerId));
  if (!row) throw notFound(NOT_YOURS);
  return row;
}
