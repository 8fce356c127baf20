import {
  addCartItemInput,
  cart,
  cartPurchaseInput,
  checkoutSummary,
  LICENCE_MESSAGES,
  licencePriceMinor,
  okEnvelope,
  purchaseResult,
  shortfallAmount,
} from '@atelier/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound, validationError } from '../../lib/app-error';
import { currentUser, guard } from '../../lib/auth-guard';
import { displayAmount, requestedCurrency, resolveDisplayCurrency } from '../../lib/display-currency';
import { ok } from '../../lib/envelope';
import { spendableOf } from '../ledger';
import { buyFromBalance, loadSellables, saleMessages, saleProblem } from '../orders';
import { addToCart, cartProductIds, cartTiers, loadCart, removeFromCart } from './cart.queries';

const strip = <T extends { totalMinor: number; productIds: number[] }>({ totalMinor: _t, productIds: _p, ...rest }: T) => rest;

export const cartRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['cart'];
  const currencyOf = (request: Parameters<typeof requestedCurrency>[0]) => resolveDisplayCurrency(app, requestedCurrency(request));

  app.get('/cart', { config: guard('user'), schema: { tags, response: { 200: okEnvelope(cart) } } }, async (request) => {
    const userId = currentUser(request).id;
    return ok(strip(await loadCart(app.db, userId, await currencyOf(request))));
  });

  app.post('/cart/items', { config: guard('verified'), schema: { tags, body: addCartItemInput, response: { 200: okEnvelope(cart) } } }, async (request) => {
    const user = currentUser(request);
    const { product_id, product_type, licence_tier = 'commercial' } = request.body;
    const [product] = await loadSellables(app.db, [product_id]);
    const problem = await saleProblem(app.db, user.id, product);
    if (problem) throw validationError({ product_id: problem });
    if (product!.productType !== product_type) throw validationError({ product_type: `This product is of type ${product!.productType}, not ${product_type}.` });
    // Issue 34: a licence the work is offered with (a pack: commercial only).
    if (product!.productType === 'pack' && licence_tier !== 'commercial') throw validationError({ licence_tier: LICENCE_MESSAGES.packCommercial });
    if (licencePriceMinor(product!, licence_tier) === null) throw validationError({ licence_tier: LICENCE_MESSAGES.notOffered(licence_tier) });
    await addToCart(app.db, user.id, product_id, licence_tier);
    return ok(strip(await loadCart(app.db, user.id, await currencyOf(request))), 'The item was added to your cart.');
  });

  app.delete(
    '/cart/items/:id',
    { config: guard('user'), schema: { tags, params: z.object({ id: z.coerce.number().int().positive() }), response: { 200: okEnvelope(cart) } } },
    async (request) => {
      const userId = currentUser(request).id;
      if (!(await removeFromCart(app.db, userId, request.params.id))) throw notFound('This item is not in your cart.');
      return ok(strip(await loadCart(app.db, userId, await currencyOf(request))), 'The item was removed from your cart.');
    },
  );

  /** What paying from the balance would do: nothing is charged. */
  app.post(
    '/cart/checkout',
    { config: guard('verified'), schema: { tags, body: cartPurchaseInput, response: { 200: okEnvelope(checkoutSummary) } } },
    async (request) => {
      const user = currentUser(request);
      const currency = await currencyOf(request);
      // Issue 34: priced with the discount code given (a 422 on discount_code says why it cannot be used).
      const current = await loadCart(app.db, user.id, currency, request.body?.discount_code);
      if (!current.items.length) throw validationError({ cart: saleMessages.emptyCart });
      // What the buyer can pay with: the balance, then available earnings (as postSale takes them).
      const balanceMinor = await spendableOf(app.db, user.id);
      const shortfallMinor = Math.max(0, current.totalMinor - balanceMinor);
      return ok({
        items: current.items,
        total: current.total,
        balance: displayAmount(balanceMinor, currency),
        // Rounded up: adding the amount shown always covers what is missing.
        shortfall: shortfallAmount(shortfallMinor, currency),
        can_pay: shortfallMinor === 0,
        currency: currency.code,
        currencySymbol: currency.symbol,
      });
    },
  );

  /** Buys the whole cart from the balance: one transaction, one order, and the cart is emptied. */
  app.post(
    '/cart/purchase',
    { config: guard('verified'), schema: { tags, body: cartPurchaseInput, response: { 200: okEnvelope(purchaseResult) } } },
    async (request) => {
      return ok(
        await buyFromBalance(request, {
          productIds: (tx, buyerId) => cartProductIds(tx, buyerId),
          tiers: (tx, buyerId) => cartTiers(tx, buyerId),
          field: 'cart',
          scope: 'cart/purchase',
          fromCart: true,
          // Issue 34: the code applies to each line of the cart it covers.
          discountCode: request.body?.discount_code,
        }),
      );
    },
  );
};
