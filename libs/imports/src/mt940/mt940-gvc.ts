import type { Counterparty, LineReferences } from '../statement-items';

/** What the :86: "information to account owner" of a line says, in the three layouts banks use. */
export interface Mt940Information {
  description: string;
  references: LineReferences;
  counterparty?: Counterparty;
  /** The German business transaction code (GVC, e.g. 166 for a SEPA credit transfer). */
  businessCode?: string;
}

// German/ZKA layout: a three-digit business code (GVC), then subfields "?NN" (Triodos uses ">NN"):
// ?00 booking text, ?10 primanota, ?20-?29 and ?60-?63 purpose, ?30 the counterparty's bank code (BLZ or
// BIC), ?31 its account, ?32-?33 its name, ?34 a code supplement. Subfields are hard-wrapped at 27
// characters, so text continues across them and across physical lines without a space.
export const STRUCTURED_START = /^(\d{3})([?>])\d{2}/;
/** Purpose subfields in the order they continue one another. */
const PURPOSE_ORDER = ['20', '21', '22', '23', '24', '25', '26', '27', '28', '29', '60', '61', '62', '63'];
const SUBFIELD_CHARS = 27;

// SEPA keywords inside the purpose: the text after one runs to the next keyword. A keyword may start a
// subfield or follow other text in it ("EREF+123 SVWZ+Invoice 7").
const SEPA_KEYWORD = /(EREF|KREF|MREF|CRED|DEBT|COAM|OAMT|SVWZ|ABWA|ABWE|IBAN|BIC)\+/g;
type SepaKeyword =
  | 'EREF'
  | 'KREF'
  | 'MREF'
  | 'CRED'
  | 'DEBT'
  | 'COAM'
  | 'OAMT'
  | 'SVWZ'
  | 'ABWA'
  | 'ABWE'
  | 'IBAN'
  | 'BIC';
const REFERENCE_OF: Partial<Record<SepaKeyword, keyof LineReferences>> = {
  EREF: 'endToEndId',
  MREF: 'mandateId',
  KREF: 'customerReference',
};
/** Free text continues over any subfield; a keyword's value only over a full subfield into the next. */
const FREE_TEXT: ReadonlySet<SepaKeyword | null> = new Set([null, 'SVWZ']);

interface Segment {
  keyword: SepaKeyword | null;
  text: string;
}

function subfields(joined: string, separator: string): Array<[string, string]> {
  const parts = joined.slice(3).split(separator === '?' ? /\?(\d{2})/ : />(\d{2})/);
  const fields: Array<[string, string]> = [];
  for (let index = 1; index + 1 < parts.length; index += 2) fields.push([parts[index], parts[index + 1]]);
  return fields;
}

/**
 * The purpose subfields as keyword segments. A subfield without a keyword at its start continues the segment
 * before it when that is free text (or SVWZ), or when the subfield before was full (27 characters) and
 * directly precedes it: a 35-character end-to-end reference wraps so. Otherwise it is free text of its own.
 */
function purposeSegments(fields: ReadonlyArray<[string, string]>): Segment[] {
  const segments: Segment[] = [];
  let previous: { code: string; length: number } | null = null;
  for (const [code, text] of fields) {
    const order = PURPOSE_ORDER.indexOf(code);
    if (order === -1) continue;
    const last = segments.at(-1);
    const wrapped =
      previous !== null && previous.length >= SUBFIELD_CHARS && PURPOSE_ORDER[order - 1] === previous.code;
    const continues = last !== undefined && (FREE_TEXT.has(last.keyword) || wrapped);
    const keywords = [...text.matchAll(SEPA_KEYWORD)];
    const head = text.slice(0, keywords[0]?.index ?? text.length);
    if (head !== '' && last !== undefined && continues) last.text += head;
    else if (head !== '') segments.push({ keyword: null, text: head });
    keywords.forEach((match, index) => {
      const end = index + 1 < keywords.length ? keywords[index + 1].index : text.length;
      segments.push({ keyword: match[1] as SepaKeyword, text: text.slice(match.index + match[0].length, end) });
    });
    previous = { code, length: text.length };
  }
  return segments;
}

function meaningful(text: string): string | undefined {
  const value = text.trim();
  return value === '' || value === 'NOTPROVIDED' ? undefined : value;
}

export function structured(joined: string, separator: string): Mt940Information {
  const fields = subfields(joined, separator);
  const field = (code: string): string =>
    fields
      .filter(([each]) => each === code)
      .map(([, text]) => text)
      .join('');
  const references: LineReferences = {};
  const counterparty: Counterparty = {};
  const purpose: string[] = [];
  for (const { keyword, text } of purposeSegments(fields)) {
    const reference = keyword === null ? undefined : REFERENCE_OF[keyword];
    if (reference !== undefined) references[reference] = meaningful(text);
    else if (keyword === 'ABWA') counterparty.ultimateDebtor = meaningful(text);
    else if (keyword === 'ABWE') counterparty.ultimateCreditor = meaningful(text);
    else if (FREE_TEXT.has(keyword)) purpose.push(text);
    // CRED (creditor id), DEBT, COAM/OAMT (amounts), IBAN/BIC (repeated from ?30/?31): not the purpose.
  }
  const bookingText = field('00').trim();
  const description = [bookingText, purpose.join('').trim()].filter((part) => part !== '').join(' ');
  counterparty.bankCode = meaningful(field('30'));
  counterparty.account = meaningful(field('31'));
  counterparty.name = meaningful(field('32') + field('33'));
  return { description, references, counterparty, businessCode: joined.slice(0, 3) };
}
