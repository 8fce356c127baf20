import { type ReactNode, useEffect, useMemo, useRef } from 'react';
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';
import { buildCountryData, type CountryData, defaultCountries, PhoneInput, type PhoneInputRefType, parseCountry } from 'react-international-phone';
import 'react-international-phone/style.css';
import { useTranslation } from '../../lib/i18n-runtime';
import { useVisitorCountry } from '../../lib/visitor-country';
import { FieldFrame } from './field';
import { phoneFlags } from './phone-flags';

const KNOWN = new Set(defaultCountries.map((c) => parseCountry(c).iso2 as string));

/** The picker's countries named in the page's language ("Deutschland"), in its alphabetical order; English as the library has them. */
export function countriesIn(language: string): CountryData[] {
  if (language === 'en' || typeof Intl.DisplayNames !== 'function') return defaultCountries;
  const names = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' });
  const named = defaultCountries.map((c) => {
    const country = parseCountry(c);
    return buildCountryData({ ...country, name: names.of(country.iso2.toUpperCase()) ?? country.name });
  });
  return named.sort((a, b) => a[0].localeCompare(b[0], language));
}

type Props = {
  id: string;
  label: ReactNode;
  value: string;
  onChange: (phone: string) => void;
  onBlur?: () => void;
  error?: string;
  hint?: ReactNode;
};

/**
 * The one phone input of every form: a country picker and the number, in the shared field layout.
 * A number that is only the picked country's code ("+351") is handed on as empty, so the form's own
 * rule (required, or optional) decides, in the browser, instead of the server refusing it later.
 * The country picked at first is the visitor's (issue 18: never a fixed one): see useVisitorCountry.
 * Once that is known the picker turns to it, unless a number has been typed (it keeps its own country).
 */
export function PhoneField({ id, label, value, onChange, onBlur, error, hint }: Props) {
  const { t, i18n } = useTranslation();
  const countries = useMemo(() => countriesIn(i18n.language), [i18n.language]);
  const frame = useRef<HTMLDivElement>(null);
  // The library names its country button in English and takes no prop for it; React leaves an
  // attribute it rendered alone until its own value changes, so this one stays.
  useEffect(() => {
    frame.current?.querySelector('[aria-haspopup="listbox"]')?.setAttribute('aria-label', t('profile.phone_country'));
  });
  const visitor = useVisitorCountry();
  const country = visitor && KNOWN.has(visitor) ? visitor : undefined;
  const input = useRef<PhoneInputRefType>(null);
  const typed = useRef(false);
  typed.current = value !== '';
  useEffect(() => {
    if (country && !typed.current) input.current?.setCountry(country, { focusOnInput: false });
  }, [country]);
  return (
    <FieldFrame
      id={id}
      label={label}
      error={error}
      hint={hint}
      control={(a11y) => (
        <div className="phone-field" ref={frame}>
          <PhoneInput
            ref={input}
            countries={countries}
            defaultCountry={country}
            flags={phoneFlags}
            value={value}
            onChange={(phone, meta) => onChange(phone.replace(/\D/g, '') === meta.country.dialCode ? '' : phone)}
            inputProps={{ ...a11y, name: 'phone', maxLength: 25, autoComplete: 'tel', onBlur }}
          />
        </div>
      )}
    />
  );
}

/** PhoneField as a field of a react-hook-form form (`name` holds the number), for the forms that validate with a schema. */
export function PhoneFormField<T extends FieldValues>({
  control,
  name,
  ...field
}: { control: Control<T>; name: Path<T> } & Omit<Props, 'value' | 'onChange' | 'onBlur'>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field: bound }) => <PhoneField {...field} value={bound.value} onChange={bound.onChange} onBlur={bound.onBlur} />}
    />
  );
}
