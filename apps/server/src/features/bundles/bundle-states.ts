import { BUNDLE_STATUSES, type BundleStatus } from '@atelier/shared';
import { defineLifecycle } from '../../lib/lifecycle';

/** Who moves a bundle proposal: the creator who made it, or staff in the back office. */
export type BundleActor = 'creator' | 'staff';

/**
 * What a move does besides changing the status (bundles.queries.ts carries them out): publish_pack (a
 * pack of the works, authored by the creator and not platform-owned, so each sale pays the creator like
 * any of their sales), keep_reason (shown to the creator), notify_creator (bell and e-mail), audit.
 */
export type BundleEffect = 'publish_pack' | 'keep_reason' | 'notify_creator' | 'audit';

/**
 * A bundle's whole life, reviewed like a listing (offer-states.ts): one row per legal move. Anything
 * else is refused with 409 and changes nothing.
 */
export const bundleLifecycle = defineLifecycle<BundleStatus, BundleActor, BundleEffect>({
  name: 'creator bundle',
  states: BUNDLE_STATUSES,
  finals: ['approved', 'rejected', 'withdrawn'],
  moves: [
    // The creator proposes a bundle of their own listed works, at least 10 % below their sum.
    { from: null, to: 'pending', by: ['creator'], effects: [] },
    // Staff approve it: it is published as the creator's pack (its works and price checked again first).
    { from: 'pending', to: 'approved', by: ['staff'], effects: ['publish_pack', 'notify_creator', 'audit'] },
    // Staff reject it with a reason the creator reads.
    { from: 'pending', to: 'rejected', by: ['staff'], effects: ['keep_reason', 'notify_creator', 'audit'] },
    // The creator takes it back while it waits.
    { from: 'pending', to: 'withdrawn', by: ['creator'], effects: [] },
  ],
});

const STATUS_WORDS: Record<BundleStatus, string> = {
  pending: 'waiting for review',
  approved: 'approved',
  rejected: 'rejected',
  withdrawn: 'withdrawn',
};

/** The 409 message for a move the table does not allow. */
export function illegalBundleMove(from: BundleStatus, to: BundleStatus): string {
  const wanted: Record<BundleStatus, string> = { pending: 'go back to review', approved: 'be approved', rejected: 'be rejected', withdrawn: 'be withdrawn' };
  return `This bundle is ${STATUS_WORDS[from]} and cannot ${wanted[to]} now.`;
}
