import type { Counterparty, LineReferences } from '../statement-items';

/** What the :86: "information to account owner" of a line says, in the three layouts banks use. */
export interface Mt940Information {
  description: string;
  references: LineReferences;
  counterparty?: Counterparty;
}

// German/ZKA layout: a three-digit business code, then subfields "?NN" (Triodos uses ">NN"). Subfields are
// hard-wrapped at 27 characters, so text continues across them and across physical lines without a space.
const STRUCTURED_START = /^(\d{3})([?>])\d{2}/;
const PURPOSE_FIELDS = new Set(['20', '21', '22', '23', '24', '25', '26', '27', '28', '29', '60', '61', '62', '63']);
// SEPA keywords at the start of a purpose subfield; their values become references, not description.
const SEPA_REFERENCE_KEYS: Readonly<Record<string, keyof LineReferences | null>> = {
  'EREF+': 'endToEndId',
  'MREF+': 'mandateId',
  'KREF+': 'customerReference',
  'CRED+': null,
  'DEBT+': null,
};

function structured(joined: string, separator: string): Mt940Information {
  const parts = joined.slice(3).split(separator === '?' ? /\?(\d{2})/ : />(\d{2})/);
  const fields: Array<[string, string]> = [];
  for (let index = 1; index + 1 < parts.length; index += 2) fields.push([parts[index], parts[index + 1]]);
  const field = (code: string): string =>
    fields
      .filter(([each]) => each === code)
      .map(([, text]) => text)
      .join('');
  const references: LineReferences = {};
  const purpose: string[] = [];
  for (const [, text] of fields.filter(([each]) => PURPOSE_FIELDS.has(each))) {
    const key = Object.keys(SEPA_REFERENCE_KEYS).find((prefix) => text.startsWith(prefix));
    if (key === undefined) {
      purpose.push(text.startsWith('SVWZ+') ? text.slice('SVWZ+'.length) : text);
      continue;
    }
    const name = SEPA_REFERENCE_KEYS[key];
    const value = text.slice(key.length).trim();
    if (name !== null && value !== '' && value !== 'NOTPROVIDED') references[name] = value;
  }
  const bookingText = field('00').trim();
  const description = [bookingText, purpose.join('').trim()].filter((part) => part !== '').join(' ');
  const name = (field('32') + field('33')).trim();
  const account = field('31').trim();
  return { description, references, counterparty: { name: name || undefined, account: account || undefined } };
}

// Dutch/ING layout: "/EREF/123//CNTP/NL08INGB0000001234/INGBNL2A/NAME/CITY//REMI/USTD//text/".
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

function slashSeparated(joined: string): Mt940Information {
  const keys = [...joined.matchAll(SLASH_KEY)];
  const values = new Map<string, string>();
  keys.forEach((match, index) => {
    const end = index + 1 < keys.length ? keys[index + 1].index : joined.length;
    values.set(match[1], joined.slice(match.index + match[0].length, end).replace(/\/+$/, ''));
  });
  const [account, , name] = (values.get('CNTP') ?? '').split('/');
  const remittance = (values.get('REMI') ?? '').replace(/^(USTD|STRD)\/+/, '').replace(/^CUR\/+/, '');
  return {
    description: remittance.trim() || joined.trim(),
    references: { endToEndId: values.get('EREF'), mandateId: values.get('MARF'), instructionId: values.get('IREF') },
    counterparty: { name: name?.trim() || undefined, account: account?.trim() || undefined },
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
