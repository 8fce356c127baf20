import type { ProductBase } from '@atelier/shared';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n-runtime';
import { carouselBehaviour, nextSlide } from './carousel-rules';
import { ProductCard } from './product-card';

/**
 * SPEC §9 carousel on CSS scroll-snap: slides per view and gaps come from the breakpoints in
 * styles.css (the same numbers as carousel-rules.ts); the arrows follow the loop/navigation rules.
 * Looping wraps from the last slide to the first (a rewind), which keeps the DOM free of clones.
 */
export function ProductCarousel({ products, label }: { products: ProductBase[]; label: string }) {
  const { t } = useTranslation();
  const track = useRef<HTMLUListElement>(null);
  const [active, setActive] = useState(0);
  const [atEnd, setAtEnd] = useState(false);
  const rules = carouselBehaviour(products.length);

  function slideAt(index: number) {
    return track.current?.children[index] as HTMLElement | undefined;
  }

  function goTo(index: number, smooth = true) {
    const el = track.current;
    const slide = slideAt(index);
    if (!el || !slide) return;
    const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    el.scrollTo({ left: slide.offsetLeft - el.offsetLeft, behavior: smooth && !reduce ? 'smooth' : 'auto' });
    setActive(index);
  }

  // The list the track last showed: a fresh track already starts at the first slide, and writing
  // scrollLeft while the page hydrates would force a layout for nothing.
  const shown = useRef<ProductBase[] | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new list starts again at its initial slide.
  useEffect(() => {
    const el = track.current;
    if (!el) return;
    if (shown.current !== null) {
      el.scrollLeft = 0;
      setActive(0);
    }
    shown.current = products;
    if (rules.initialSlide > 0) goTo(rules.initialSlide, false);
  }, [products]);

  function onScroll() {
    const el = track.current;
    if (!el) return;
    const first = slideAt(0);
    const step = first ? first.getBoundingClientRect().width : el.clientWidth;
    const gap = Number.parseFloat(getComputedStyle(el).columnGap) || 0;
    setActive(Math.round(el.scrollLeft / (step + gap || 1)));
    setAtEnd(el.scrollLeft + el.clientWidth >= el.scrollWidth - 2);
  }

  function move(direction: 1 | -1) {
    // At the visual end the last slides are all in view: "next" wraps (loop) or stops.
    const from = direction === 1 && atEnd ? products.length - 1 : active;
    const target = nextSlide(from, direction, products.length, rules.loop);
    if (target !== null) goTo(target);
  }

  const prevDisabled = !rules.loop && active === 0;
  const nextDisabled = !rules.loop && (atEnd || active >= products.length - 1);

  return (
    <div className="carousel" data-count={products.length}>
      <ul className="carousel-track" ref={track} onScroll={onScroll} aria-label={label}>
        {products.map((p, i) => (
          <li key={p.id} className="carousel-slide" aria-label={`${i + 1} / ${products.length}`}>
            <ProductCard product={p} tagline />
          </li>
        ))}
      </ul>
      {rules.navigation && (
        <div className="carousel-nav">
          <button type="button" className="icon-button" onClick={() => move(-1)} disabled={prevDisabled} aria-label={t('home.previous_slide')}>
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
              <path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          </button>
          <button type="button" className="icon-button" onClick={() => move(1)} disabled={nextDisabled} aria-label={t('home.next_slide')}>
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
              <path d="M9 5l7 7-7 7" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          </button>
        </div>
      )}
    </div>
  );
}
