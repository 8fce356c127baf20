import { randomBytes } from 'node:crypto';
import { minorToAmount } from '@atelier/shared';
import { decryptIban, type PayoutRow } from './payouts';

/** SEPA allows a Latin subset in names and texts; anything else is transliterated or dropped. */
function sepaText(text: string, max: number): string {
  const latin = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9/\-?:().,'+ ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return (latin || 'NOTPROVIDED').slice(0, max);
}

const money = (minor: number) => minorToAmount(minor).toFixed(2);

/**
 * A SEPA credit-transfer initiation (ISO 20022 pain.001.001.03) of the given processing SEPA
 * payouts, for the platform's bank: one payment block from the debtor account, one transaction per
 * payout (EndToEndId PAYOUT-{id}). The IBANs are decrypted only here, for staff.
 */
export function sepaCreditTransferXml(rows: PayoutRow[], opts: { secret: string; debtorIban: string; debtorName: string; now?: Date }): string {
  const now = opts.now ?? new Date();
  const messageId = `ATELIER-${now.getTime()}-${randomBytes(3).toString('hex')}`;
  const total = money(rows.reduce((sum, r) => sum + r.amountMinor, 0));
  const transactions = rows
    .map(
      (r) =>
        `<CdtTrfTxInf><PmtId><EndToEndId>PAYOUT-${r.id}</EndToEndId></PmtId><Amt><InstdAmt Ccy="${r.currency}">${money(r.amountMinor)}</InstdAmt></Amt><Cdtr><Nm>${sepaText(r.holderName, 70)}</Nm></Cdtr><CdtrAcct><Id><IBAN>${decryptIban(r.ibanEncrypted!, opts.secret)}</IBAN></Id></CdtrAcct><RmtInf><Ustrd>${sepaText(`Atelier ${r.kind === 'withdrawal' ? 'withdrawal ' : r.offerId ? `offer ${r.offerId} ` : ''}payout ${r.id}`, 140)}</Ustrd></RmtInf></CdtTrfTxInf>`,
    )
    .join('');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03"><CstmrCdtTrfInitn>',
    `<GrpHdr><MsgId>${messageId}</MsgId><CreDtTm>${now.toISOString().slice(0, 19)}</CreDtTm><NbOfTxs>${rows.length}</NbOfTxs><CtrlSum>${total}</CtrlSum><InitgPty><Nm>${sepaText(opts.debtorName, 70)}</Nm></InitgPty></GrpHdr>`,
    `<PmtInf><PmtInfId>${messageId}-1</PmtInfId><PmtMtd>TRF</PmtMtd><NbOfTxs>${rows.length}</NbOfTxs><CtrlSum>${total}</CtrlSum><PmtTpInf><SvcLvl><Cd>SEPA</Cd></SvcLvl></PmtTpInf><ReqdExctnDt>${now.toISOString().slice(0, 10)}</ReqdExctnDt><Dbtr><Nm>${sepaText(opts.debtorName, 70)}</Nm></Dbtr><DbtrAcct><Id><IBAN>${opts.debtorIban}</IBAN></Id></DbtrAcct><DbtrAgt><FinInstnId><Othr><Id>NOTPROVIDED</Id></Othr></FinInstnId></DbtrAgt><ChrgBr>SLEV</ChrgBr>${transactions}</PmtInf>`,
    '</CstmrCdtTrfInitn></Document>',
    '',
  ].join('\n');
}
