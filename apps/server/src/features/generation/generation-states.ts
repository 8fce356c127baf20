import type { GenerationStatus } from '../../db/schema';
import { defineLifecycle } from '../../lib/lifecycle';

/** Who moves a generation: the user who asks for it, or its job. */
export type GenerationActor = 'user' | 'system';

/**
 * What a move does besides changing the status (generation.ts carries them out):
 * charge (the price to platform revenue, with the row and its job in one transaction), store_image
 * (the rendered file kept privately), ledger_refund (the charge given back once, keyed
 * generation-refund:<id>).
 */
export type GenerationEffect = 'charge' | 'store_image' | 'ledger_refund';

/** What a guard sees of the generation. */
export type GenerationFacts = { priceMinor: number };

/**
 * A generation's whole life (issue 17 hole 4, issue 30): every charge ends as an image (done) or, after
 * the job's last attempt, a refund (refunded); a free one that failed ends failed.
 */
export const generationLifecycle = defineLifecycle<GenerationStatus, GenerationActor, GenerationEffect, GenerationFacts>({
  name: 'generation',
  states: ['pending', 'done', 'refunded', 'failed'],
  finals: ['done', 'refunded', 'failed'],
  moves: [
    { from: null, to: 'pending', by: ['user'], effects: ['charge'] },
    // An attempt rendered and stored the image.
    { from: 'pending', to: 'done', by: ['system'], effects: ['store_image'] },
    // The last attempt failed: a paid one is refunded, once.
    {
      from: 'pending',
      to: 'refunded',
      by: ['system'],
      effects: ['ledger_refund'],
      guard: (g) => (g.priceMinor > 0 ? null : 'A free generation has nothing to refund.'),
    },
    // The last attempt failed and nothing was charged.
    { from: 'pending', to: 'failed', by: ['system'], effects: [], guard: (g) => (g.priceMinor > 0 ? 'A paid generation is refunded, not failed.' : null) },
  ],
});
