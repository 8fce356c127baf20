/** Inline SVG icons: nothing is fetched for them, and they inherit the text colour. */
type IconProps = { size?: number };
const base = (size: number) => ({ width: size, height: size, viewBox: '0 0 24 24' });
const stroke = { fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round' as const, strokeLinejoin: 'round' as const };

export const SearchIcon = ({ size = 20 }: IconProps) => (
  <svg {...base(size)} aria-hidden="true" focusable="false">
    <circle cx="11" cy="11" r="7" {...stroke} />
    <path d="M20 20l-3.5-3.5" {...stroke} />
  </svg>
);
export const BellIcon = ({ size = 22 }: IconProps) => (
  <svg {...base(size)} aria-hidden="true" focusable="false">
    <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" {...stroke} />
    <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" {...stroke} />
  </svg>
);
export const CartIcon = ({ size = 22 }: IconProps) => (
  <svg {...base(size)} aria-hidden="true" focusable="false">
    <circle cx="9" cy="20" r="1.4" {...stroke} />
    <circle cx="18" cy="20" r="1.4" {...stroke} />
    <path d="M2.5 3h3l2.6 12.2a2 2 0 0 0 2 1.6h7.7a2 2 0 0 0 2-1.5L21.5 8H6.4" {...stroke} />
  </svg>
);
export const MenuIcon = ({ size = 22 }: IconProps) => (
  <svg {...base(size)} aria-hidden="true" focusable="false">
    <path d="M4 7h16M4 12h16M4 17h10" {...stroke} />
  </svg>
);
export const CloseIcon = ({ size = 22 }: IconProps) => (
  <svg {...base(size)} aria-hidden="true" focusable="false">
    <path d="M6 6l12 12M18 6L6 18" {...stroke} />
  </svg>
);
export const MailIcon = ({ size = 18 }: IconProps) => (
  <svg {...base(size)} aria-hidden="true" focusable="false">
    <rect x="3" y="5" width="18" height="14" rx="2" {...stroke} />
    <path d="M3 7l9 6 9-6" {...stroke} />
  </svg>
);

/** The brand mark: a yellow easel-like "A" on the dark ink. */
export const LogoMark = ({ size = 32 }: IconProps) => (
  <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
    <rect width="32" height="32" rx="9" fill="#ffd23f" />
    <path d="M9 24l7-16 7 16M12 18h8" fill="none" stroke="#14121f" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
);

export function MastercardIcon() {
  return (
    <svg width="46" height="30" viewBox="0 0 46 30" role="img" aria-label="Mastercard">
      <rect width="46" height="30" rx="5" fill="#fff" />
      <circle cx="18.5" cy="15" r="8" fill="#EB001B" />
      <circle cx="27.5" cy="15" r="8" fill="#F79E1B" />
      <path d="M23 8.4a8 8 0 0 1 0 13.2 8 8 0 0 1 0-13.2z" fill="#FF5F00" />
    </svg>
  );
}

export function VisaIcon() {
  return (
    <svg width="46" height="30" viewBox="0 0 46 30" role="img" aria-label="Visa">
      <rect width="46" height="30" rx="5" fill="#fff" />
      <text x="23" y="20" textAnchor="middle" fontFamily="Arial, Helvetica, sans-serif" fontSize="13" fontWeight="900" fontStyle="italic" fill="#1A1F71">
        VISA
      </text>
    </svg>
  );
}

export function SecureIcon() {
  return (
    <svg width="46" height="30" viewBox="0 0 46 30" role="img" aria-label="3-D Secure">
      <rect width="46" height="30" rx="5" fill="#fff" />
      <path d="M10 8.5l5-2 5 2v5c0 3.4-2.2 5.8-5 7-2.8-1.2-5-3.6-5-7z" fill="#00a37a" />
      <path d="M12.6 13.6l1.8 1.8 3.3-3.4" fill="none" stroke="#fff" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
      <text x="32" y="13.5" textAnchor="middle" fontFamily="Arial, Helvetica, sans-serif" fontSize="7.5" fontWeight="800" fill="#14121f">
        3-D
      </text>
      <text x="32" y="22" textAnchor="middle" fontFamily="Arial, Helvetica, sans-serif" fontSize="6.5" fontWeight="700" fill="#14121f">
        Secure
      </text>
    </svg>
  );
}
