import { type Mt940Information, STRUCTURED_START, structured } from './mt940-gvc';

export type { Mt940Information } from './mt940-gvc';

// Dutch/ING layout: "/EREF/123//CNTP/NL08INGB0000001234/INGBNL2A/NAME/CITY//REMI/USTD//text/". The party
// keys (SWIFT's structured :86:) carry sub-keys: "/BENM//NAME/Supplier BV/ADDR/...", "/ULTD//NAME/x".
const SLASH_KEYS = [
  'EREF',
  'MARF',
  'CSID',
  'CNTP',
  'REMI',
  'IREF',
  'PREF',
  'RTRN',
  'TRTP',
  'ORDP',
  'BENM',
  'PURP',
  'ULTC',
  'ULTD',
];
const SLASH_START = new RegExp(`^/(${SLASH_KEYS.join('|')})/`);
const SLASH_KEY = new RegExp(`/(${SLASH_KEYS.join('|')})/`, 'g');
const PARTY_NAME = /(?:^|\/)NAME\/([^/]*)/;

/** A reference as written, or none where the bank says it was not provided. */
function meaningful(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === 'NOTPROVIDED' ? undefined : value;
}

/** The name in a party key's value: its NAME sub-key, or (ING's "/ULTD/name/id/") its first part. */
function partyName(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const name = PARTY_NAME.exec(value)?.[1] ?? value.split('/')[0];
  return name.trim() || undefined;
}

function slashSeparated(joined: string): Mt940Information {
  const keys = [...joined.matchAll(SLASH_KEY)];
  const values = new Map<string, string>();
  keys.forEach((match, index) => {
    const end = index + 1 < keys.length ? keys[index + 1].index : joined.length;
    values.set(match[1], joined.slice(match.index + match[0].length, end).replace(/\/+$/, ''));
  });
  const [account, bankCode, cntpName] = (values.get('CNTP') ?? '').split('/');
  // The other party: CNTP where the bank gives it, else the beneficiary (a debit) or the ordering party.
  const name = partyName(cntpName) ?? partyName(values.get('BENM')) ?? partyName(values.get('ORDP'));
  const remittance = (values.get('REMI') ?? '').replace(/^(USTD|STRD)\/+/, '').replace(/^CUR\/+/, '');
  return {
    description: remittance.trim() || joined.trim(),
    references: {
      endToEndId: meaningful(values.get('EREF')),
      mandateId: meaningful(values.get('MARF')),
      instructionId: meaningful(values.get('IREF')),
    },
    counterparty: {
      name,
      account: account?.trim() || undefined,
      bankCode: bankCode?.trim() || undefined,
      ultimateDebtor: partyName(values.get('ULTD')),
      ultimateCreditor: partyName(values.get('ULTC')),
    },
  };
}

/** Reads the physical lines of one :86: (or several :86: tags that some banks send for one :61:). */
export function parseInformation(lines: readonly string[]): Mt940Information {
  const joined = lines.join('');
  const layout = STRUCTURED_START.exec(joined);
  if (layout !== null) return structured(joined, layout[2]);
  if (SLASH_START.test(joined)) return slashSeparated(joined);
  // Free text: physical lines are separate phrases (ABN AMRO, ING), so they are joined with a space.
  const description = lines
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ');
  return { description, references: {} };
}
