/** SPEC §9 carousel: slides per view and gap by breakpoint (min width in px). */
export const CAROUSEL_BREAKPOINTS = [
  { minWidth: 1024, slidesPerView: 3, gap: 60 },
  { minWidth: 768, slidesPerView: 2.2, gap: 40 },
  { minWidth: 0, slidesPerView: 1.4, gap: 10 },
] as const;

export function carouselLayout(width: number) {
  return CAROUSEL_BREAKPOINTS.find((b) => width >= b.minWidth) ?? CAROUSEL_BREAKPOINTS[2];
}

export type CarouselBehaviour = {
  /** Wraps around from the last slide to the first and back: more than 3 items. */
  loop: boolean;
  /** Previous/next buttons: more than 1 item. */
  navigation: boolean;
  /** The slide shown first: the middle one with exactly 3 items, else the first. */
  initialSlide: number;
};

export function carouselBehaviour(count: number): CarouselBehaviour {
  return {
    loop: count > 3,
    navigation: count > 1,
    // "The middle one when there are 3 or fewer items (none for 0-2)": only 3 items have a middle.
    initialSlide: count === 3 ? 1 : 0,
  };
}

/** The slide the arrows go to; null when that direction is closed (no loop at an end). */
export function nextSlide(current: number, direction: 1 | -1, count: number, loop: boolean): number | null {
  const target = current + direction;
  if (target >= 0 && target < count) return target;
  if (!loop || count === 0) return null;
  return (target + count) % count;
}
