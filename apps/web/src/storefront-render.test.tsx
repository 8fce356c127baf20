// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { render } from './entry-server';
import { aProduct } from './test/fixtures';
import { json, ok, shellAnswer } from './test/server-render-answers';

/**
 * The storefront rendered on the server (issue 34): the profile page's HTML carries the banner, the
 * headline, the links and the featured works in the creator's order, in one pass, before any code runs.
 * The API is answered here as the server answers it in-process.
 */
const profile = {
  id: 7,
  name: 'Ines',
  surname: 'Duarte',
  nickname: 'ines',
  about_me: 'Lisbon light.',
  hourly_rate: 0,
  avatar_path: null,
  avatar_url_large: null,
  created_at: 1_780_000_000,
  products_count: 3,
  rating_average: 0,
  rating_count: 0,
  followers_count: 12,
  following: false,
};
const storefront = {
  creator_id: 7,
  nickname: 'ines',
  headline: 'Prompts for quiet mornings',
  banner_url: '/storage/banners/7/abc.webp',
  links: [
    { label: 'Portfolio', url: 'https://portfolio.example/ines' },
    { label: '', url: 'https://instagram.com/ines/' },
  ],
  featured: [aProduct({ id: 2, slug: 'quiet-harbour', title: 'Quiet harbour' }), aProduct({ id: 1, slug: 'fox-at-dawn', title: 'Fox at dawn' })],
  followers_count: 12,
  sales_count: 31,
};

async function api(url: string) {
  const { pathname } = new URL(url, 'http://localhost');
  switch (pathname) {
    case '/api/user/public-profile/ines':
      return ok(profile);
    case '/api/creators/ines/storefront':
      return ok(storefront);
    case '/api/products/catalog':
      return json(200, { status: 'OK', payload: [], meta: { page: 1, pages: 0, total: 0, limit: 12 } });
    default:
      return shellAnswer(pathname) ?? json(404, { status: 'ERROR', message: 'Not found.' });
  }
}

describe('the storefront on the server', () => {
  it('renders banner, headline, links, followers, sales and the featured works in order into the profile page', async () => {
    const result = (await render({ url: '/profile/ines', cookies: {}, fetch: api }))!;
    const html = result.html;
    expect(result.passes).toBe(1);
    expect(html).toContain('src="/storage/banners/7/abc.webp"');
    expect(html).toContain('Prompts for quiet mornings');
    expect(html).toContain('href="https://portfolio.example/ines"');
    expect(html).toContain('>Portfolio</a>');
    // A link without a label shows its address.
    expect(html).toContain('>instagram.com/ines</a>');
    // Followers beside the follow button, sales under the headline.
    expect(html).toContain('12 followers');
    expect(html).toContain('31 sales');
    expect(html).toContain('Featured by ines');
    expect(html.indexOf('Quiet harbour')).toBeGreaterThan(-1);
    expect(html.indexOf('Quiet harbour')).toBeLessThan(html.indexOf('Fox at dawn'));
    expect(html).not.toContain('<!--$!-->');
  });
});
