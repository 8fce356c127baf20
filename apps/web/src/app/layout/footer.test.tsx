import { describe, expect, it } from 'vitest';
import { footerCategoryLinks, socialNetworkName } from './footer';

describe('footer category links (SPEC §2)', () => {
  const categories = [
    { id: 1, parent_id: null, title: 'Images', url: 'images' },
    { id: 2, parent_id: 1, title: 'Illustrations', url: 'images/illustrations' },
    { id: 3, parent_id: null, title: 'Texts', url: 'texts' },
    { id: 4, parent_id: null, title: 'Prompts', url: '/prompts/' },
    { id: 5, parent_id: null, title: 'Misc', url: 'other' },
  ];

  it('links each top-level category to the list typed by the first url segment, and labels image categories Art', () => {
    expect(footerCategoryLinks(categories, 'Art')).toEqual([
      { id: 1, label: 'Art', to: '/products?type=image' },
      { id: 3, label: 'Texts', to: '/products?type=doc' },
      { id: 4, label: 'Prompts', to: '/products?type=prompt' },
      { id: 5, label: 'Misc', to: '/products?category=5' },
    ]);
  });
});

describe('footer social links (issue 12)', () => {
  it('names the network a link leads to, or its host, so each icon has an accessible name', () => {
    expect(socialNetworkName('https://www.instagram.com/atelier')).toBe('Instagram');
    expect(socialNetworkName('https://x.com/atelier')).toBe('X');
    expect(socialNetworkName('https://m.facebook.com/atelier')).toBe('Facebook');
    expect(socialNetworkName('https://social.example.org/@atelier')).toBe('social.example.org');
    expect(socialNetworkName('not a url')).toBeNull();
  });
});
