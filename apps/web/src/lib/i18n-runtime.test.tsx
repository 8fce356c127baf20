import { render, screen } from '@testing-library/react';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { I18n, I18nextProvider, Trans, useTranslation } from './i18n-runtime';

const make = () =>
  new I18n({
    lng: 'en',
    fallbackLng: 'en',
    resources: {
      en: {
        hello: 'Hello {{name}}',
        'n.items_one': '{{count}} item',
        'n.items_other': '{{count}} items',
        only_en: 'English',
        link: 'Read <a>the terms</a> now',
      },
    },
  });

describe('the i18n runtime', () => {
  it('fills placeholders, picks the plural form by count, and falls back to the default value, then the key', () => {
    const i18n = make();
    expect(i18n.t('hello', { name: 'Ada' })).toBe('Hello Ada');
    expect(i18n.t('hello')).toBe('Hello {{name}}');
    expect(i18n.t('n.items', { count: 1 })).toBe('1 item');
    expect(i18n.t('n.items', { count: 0 })).toBe('0 items');
    expect(i18n.t('n.items', { count: 7 })).toBe('7 items');
    expect(i18n.t('missing', { defaultValue: 'Shown' })).toBe('Shown');
    expect(i18n.t('missing')).toBe('missing');
  });

  it('uses the fallback language for a word the current one lacks, and re-renders on a switch', async () => {
    const i18n = make();
    i18n.addResourceBundle('de', { hello: 'Hallo {{name}}' });
    function Probe() {
      const { t } = useTranslation();
      return (
        <p>
          {t('hello', { name: 'Ada' })} / {t('only_en')}
        </p>
      );
    }
    render(
      <I18nextProvider i18n={i18n}>
        <Probe />
      </I18nextProvider>,
    );
    expect(screen.getByText('Hello Ada / English')).toBeTruthy();
    await act(() => i18n.changeLanguage('de'));
    expect(screen.getByText('Hallo Ada / English')).toBeTruthy();
  });

  it('puts the named element around the tagged words of <Trans>', () => {
    render(
      <I18nextProvider i18n={make()}>
        <p data-testid="p">
          <Trans
            i18nKey="link"
            components={{
              // biome-ignore lint/a11y/useAnchorContent: <Trans> puts the translated words inside the link
              a: <a href="/terms" />,
            }}
          />
        </p>
      </I18nextProvider>,
    );
    expect(screen.getByTestId('p').innerHTML).toBe('Read <a href="/terms">the terms</a> now');
  });
  it('renders again when words arrive for a key it showed missing, and reports each key it finds', () => {
    const i18n = new I18n({ lng: 'en', fallbackLng: 'en', resources: { en: { hello: 'Hello {{name}}' } } });
    const found: string[] = [];
    i18n.onFound = (key) => found.push(key);
    let renders = 0;
    function Probe() {
      const { t } = useTranslation();
      renders++;
      return <p>{t('later')}</p>;
    }
    render(
      <I18nextProvider i18n={i18n}>
        <Probe />
      </I18nextProvider>,
    );
    expect(screen.getByText('later')).toBeTruthy();
    // Words that bring nothing it showed missing leave it alone.
    act(() => i18n.addResourceBundle('en', { other: 'Other' }));
    expect(renders).toBe(1);
    act(() => i18n.addResourceBundle('en', { later: 'Here now' }));
    expect(screen.getByText('Here now')).toBeTruthy();
    expect(renders).toBe(2);
    i18n.t('hello', { name: 'Ada' });
    expect(found).toEqual(['later', 'hello']);
  });
});
