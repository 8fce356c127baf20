import type { ReactNode } from 'react';
import { PhoneInput } from 'react-international-phone';
import 'react-international-phone/style.css';
import { FieldFrame } from './field';
import { phoneFlags } from './phone-flags';

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
 */
export function PhoneField({ id, label, value, onChange, onBlur, error, hint }: Props) {
  return (
    <FieldFrame
      id={id}
      label={label}
      error={error}
      hint={hint}
      control={(a11y) => (
        <div className="phone-field">
          <PhoneInput
            defaultCountry="pt"
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
