import { describe, expect, it } from 'vitest';
import { carouselBehaviour, carouselLayout, nextSlide } from './carousel-rules';

describe('carousel rules (SPEC §9)', () => {
  it('shows 1.4 slides with a 10 px gap from 320 px', () => {
    expect(carouselLayout(320)).toMatchObject({ slidesPerView: 1.4, gap: 10 });
    expect(carouselLayout(767)).toMatchObject({ slidesPerView: 1.4, gap: 10 });
  });
  it('shows 2.2 slides with a 40 px gap from 768 px', () => {
    expect(carouselLayout(768)).toMatchObject({ slidesPerView: 2.2, gap: 40 });
    expect(carouselLayout(1023)).toMatchObject({ slidesPerView: 2.2, gap: 40 });
  });
  it('shows 3 slides with a 60 px gap from 1024 px', () => {
    expect(carouselLayout(1024)).toMatchObject({ slidesPerView: 3, gap: 60 });
    expect(carouselLayout(1920)).toMatchObject({ slidesPerView: 3, gap: 60 });
  });
  it('loops only above 3 items', () => {
    expect(carouselBehaviour(3).loop).toBe(false);
    expect(carouselBehaviour(4).loop).toBe(true);
  });
  it('enables navigation only above 1 item', () => {
    expect(carouselBehaviour(0).navigation).toBe(false);
    expect(carouselBehaviour(1).navigation).toBe(false);
    expect(carouselBehaviour(2).navigation).toBe(true);
  });
  it('starts on the middle slide with 3 items, on the first otherwise', () => {
    expect(carouselBehaviour(3).initialSlide).toBe(1);
    expect(carouselBehaviour(2).initialSlide).toBe(0);
    expect(carouselBehaviour(0).initialSlide).toBe(0);
    expect(carouselBehaviour(10).initialSlide).toBe(0);
  });
  it('wraps around at the ends only when looping', () => {
    expect(nextSlide(9, 1, 10, true)).toBe(0);
    expect(nextSlide(0, -1, 10, true)).toBe(9);
    expect(nextSlide(2, 1, 3, false)).toBeNull();
    expect(nextSlide(0, -1, 3, false)).toBeNull();
    expect(nextSlide(1, 1, 3, false)).toBe(2);
  });
});
