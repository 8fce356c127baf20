/**
 * German for the messages the schemas and the server write in English (SPEC: the messages of the
 * contract are English): the forms a visitor meets first (sign-in, registration, password reset,
 * contact, profile), the sign-in's own answers, and the statement's descriptions of movements. The web app shows a message in German when this
 * file knows it, else as it came. Loaded with the German dictionary, never on an English page.
 */

/** Messages by their exact English text. */
const EXACT: Record<string, string> = {
  'Your phone number is verified.': 'Deine Telefonnummer ist bestätigt.',
  'Your phone number is verified. Our team reviews new sellers within 1-2 business days.':
    'Deine Telefonnummer ist bestätigt. Unser Team prüft neue Verkäufer innerhalb von 1–2 Werktagen.',
  'Please enter a valid e-mail address.': 'Bitte gib eine gültige E-Mail-Adresse ein.',
  'Please enter a valid phone number with its country code.': 'Bitte gib eine gültige Telefonnummer mit Ländervorwahl ein.',
  'This password is too common. Please choose a less predictable one.': 'Dieses Passwort ist zu verbreitet. Bitte wähle eines, das schwerer zu erraten ist.',
  'Please confirm the password.': 'Bitte bestätige das Passwort.',
  'The passwords do not match.': 'Die Passwörter stimmen nicht überein.',
  'You must accept the terms and the privacy policy.': 'Bitte stimme den Nutzungsbedingungen und der Datenschutzerklärung zu.',
  'Please enter your password to confirm.': 'Bitte gib zur Bestätigung dein Passwort ein.',
  'This reset link is invalid.': 'Dieser Link zum Zurücksetzen ist ungültig.',
  'This verification link is invalid.': 'Dieser Bestätigungslink ist ungültig.',
  'Enter the 6-digit code.': 'Gib den 6-stelligen Code ein.',
  'Please enter your name.': 'Bitte gib deinen Namen ein.',
  'Please write a message.': 'Bitte schreib eine Nachricht.',
  'The message must have at least 10 characters.': 'Die Nachricht muss mindestens 10 Zeichen lang sein.',
  'The hourly rate must be a number.': 'Der Stundensatz muss eine Zahl sein.',
  'The hourly rate cannot be negative.': 'Der Stundensatz darf nicht negativ sein.',
  'The hourly rate may be at most 100000.': 'Der Stundensatz darf höchstens 100000 betragen.',
  'The hourly rate may have at most 2 decimals.': 'Der Stundensatz darf höchstens 2 Nachkommastellen haben.',
  'The nickname may use 3-30 letters, digits, dots, dashes and underscores.':
    'Der Spitzname darf aus 3 bis 30 Buchstaben, Ziffern, Punkten, Binde- und Unterstrichen bestehen.',
  'About me may have at most 2000 characters.': '„Über mich“ darf höchstens 2000 Zeichen lang sein.',
  'The e-mail or password is incorrect.': 'E-Mail-Adresse oder Passwort ist falsch.',
  'Too many failed sign-in attempts.': 'Zu viele fehlgeschlagene Anmeldeversuche.',
  'Too many sign-ups from this address.': 'Zu viele Registrierungen von dieser Adresse.',
  'Too many reset requests from this address.': 'Zu viele Anfragen zum Zurücksetzen von dieser Adresse.',
  'Too many attempts.': 'Zu viele Versuche.',
  'Too many requests.': 'Zu viele Anfragen.',
  'Too many wrong codes. Please ask for a new one.': 'Zu viele falsche Codes. Bitte fordere einen neuen an.',
  // The storefront editor (issue 34).
  'Please enter a full https:// address, such as https://example.com.': 'Bitte gib eine vollständige https://-Adresse ein, etwa https://example.com.',
  'Please enter the link address.': 'Bitte gib die Adresse des Verweises ein.',
  'Only your own listed works can be featured.': 'Nur deine eigenen angebotenen Werke können hervorgehoben werden.',
  'A storefront may feature at most 6 works.': 'Ein Schaufenster kann höchstens 6 Werke hervorheben.',
  'A storefront may have at most 5 links.': 'Ein Schaufenster kann höchstens 5 Verweise haben.',
  'Each work may be featured only once.': 'Jedes Werk kann nur einmal hervorgehoben werden.',
  'The banner may be at most 5 MB.': 'Das Titelbild darf höchstens 5 MB groß sein.',
  // The statement (features/ledger/statement.ts): what each movement was.
  'Funds added by card': 'Guthaben per Karte aufgeladen',
  Purchase: 'Kauf',
  'Sale of your work': 'Verkauf deines Werks',
  'Image unlocked in a chat': 'Bild im Chat freigeschaltet',
  'Image sold in a chat': 'Bild im Chat verkauft',
  'Refund of an image generation': 'Erstattung einer Bildgenerierung',
  Refund: 'Erstattung',
  'Image generation': 'Bildgenerierung',
  'Card payment refunded by the card issuer': 'Kartenzahlung vom Kartenherausgeber erstattet',
  'Card payment disputed: amount on hold': 'Kartenzahlung beanstandet: Betrag zurückgehalten',
  'Dispute closed: amount released': 'Beanstandung abgeschlossen: Betrag freigegeben',
  'Earnings released': 'Einnahmen freigegeben',
  'Withdrawal returned': 'Auszahlung zurückgebucht',
  Withdrawal: 'Auszahlung',
  Adjustment: 'Korrektur',
};

/** A statement line naming a work or a staff reason after its kind ("Purchase: Citrus Waves"). */
const LABELLED: Record<string, string> = { Purchase: 'Kauf', Sale: 'Verkauf', Adjustment: 'Korrektur' };

/** The names the schemas give their fields (`requiredText('email')`), in German. */
const FIELDS: Record<string, string> = {
  email: 'E-Mail',
  password: 'Passwort',
  'password confirmation': 'Passwort wiederholen',
  'repeated password': 'Passwort wiederholen',
  'current password': 'Aktuelles Passwort',
  'new password': 'Neues Passwort',
  name: 'Vorname',
  surname: 'Nachname',
  phone: 'Telefon',
  nickname: 'Spitzname',
  message: 'Nachricht',
  subject: 'Betreff',
  reply: 'Antwort',
  reason: 'Grund',
  title: 'Titel',
  amount: 'Betrag',
  price: 'Preis',
  code: 'Code',
  token: 'Token',
  headline: 'Überschrift',
};

/** Messages with a field's name or a number in them. */
const PATTERNS: [RegExp, (field: string, n: string) => string][] = [
  [/^The (.+?) field is required\.$/, (f) => `Bitte fülle „${f}“ aus.`],
  [/^The (.+?) is required\.$/, (f) => `Bitte fülle „${f}“ aus.`],
  [/^The (.+?) may have at most (\d+) characters\.$/, (f, n) => `„${f}“ darf höchstens ${n} Zeichen lang sein.`],
  [/^The (.+?) must be text\.$/, (f) => `„${f}“ muss ein Text sein.`],
  [/^The (.+?) must be above zero\.$/, (f) => `„${f}“ muss größer als null sein.`],
  [/^The (.+?) may not contain a NUL character\.$/, (f) => `„${f}“ darf kein NUL-Zeichen enthalten.`],
];

/** The German of an English message, or undefined when it is not known here (then it shows as it came). */
export function messageInGerman(message: string): string | undefined {
  const exact = EXACT[message];
  if (exact !== undefined) return exact;
  const short = /^The password must be at least (\d+) characters long\.$/.exec(message);
  if (short) return `Das Passwort muss mindestens ${short[1]} Zeichen lang sein.`;
  const labelled = /^(Purchase|Sale|Adjustment): ([\s\S]+)$/.exec(message);
  if (labelled) return `${LABELLED[labelled[1]!]}: ${labelled[2]}`;
  for (const [pattern, german] of PATTERNS) {
    const match = pattern.exec(message);
    const field = match ? FIELDS[match[1]!] : undefined;
    if (match && field) return german(field, match[2] ?? '');
  }
  return undefined;
}

/** The English messages known here, for the test that each still exists in the code that writes it. */
export const KNOWN_MESSAGES = Object.keys(EXACT);
