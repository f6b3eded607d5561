import type { StatementInput } from './text-input';

// Which format a statement file is in, from its first bytes, for an import that names none. Every format
// starts with something the others cannot: XML its root element, SWIFT messages a tag line or an envelope,
// BAI2 its file header record "01,", a CSV export its header row. Only a bounded prefix is read.

/** Bytes read before deciding: a camt root element or an MT940 :20: comes long before this. */
export const DETECTION_PREFIX_BYTES_MAX = 64 * 1024;
/** Lines of a SWIFT file looked at for its first tag: bank header lines (ABN AMRO, ING) come before it. */
const MT_HEADER_LINES_MAX = 8;

/** The formats detection can name, in the order they are tried. */
export const DETECTABLE_FORMATS = [
  'camt053',
  'camt052',
  'camt054',
  'mt940',
  'mt942',
  'bai2',
  'csv:gateway',
  'csv:bank',
] as const;
export type DetectedFormat = (typeof DETECTABLE_FORMATS)[number];

// ISO 20022 names both in the namespace (urn:...:camt.053.001.08) and in the message's root element.
const CAMT_NAMESPACE = /urn:iso:std:iso:20022:tech:xsd:camt\.(05[234])\./;
const ROOT_ELEMENT = /<(?:[\w.-]+:)?(BkToCstmrStmt|BkToCstmrAcctRpt|BkToCstmrDbtCdtNtfctn)[\s>]/;
const ROOT_FORMAT: Readonly<Record<string, DetectedFormat>> = {
  BkToCstmrStmt: 'camt053',
  BkToCstmrAcctRpt: 'camt052',
  BkToCstmrDbtCdtNtfctn: 'camt054',
};

function camt(text: string): DetectedFormat | null {
  // The root element decides; a namespace alone (a root cut off by the prefix) is the fallback.
  const root = ROOT_ELEMENT.exec(text)?.[1];
  if (root !== undefined) return ROOT_FORMAT[root];
  const message = CAMT_NAMESPACE.exec(text)?.[1];
  return message === undefined ? null : (`camt${message}` as DetectedFormat);
}

const SOH = '\u0001';
const SWIFT_TAG_LINE = /^:\d{2}[A-Z]?:/;
const ENVELOPE_MESSAGE_TYPE = /\{2:[IO](940|942)/;
const INTERIM_TAGS = /^:(34F|13D):/m;
const STATEMENT_BALANCES = /^:(60F|62F):/m;

/** MT940 or MT942: the envelope's message type where it has one, else the tags an interim report has. */
function swift(text: string): DetectedFormat | null {
  const body = text.startsWith(SOH) ? text.slice(1) : text;
  const enveloped = body.startsWith('{1:');
  const lines = body.split(/\r?\n/, MT_HEADER_LINES_MAX);
  if (!enveloped && !lines.some((line) => SWIFT_TAG_LINE.test(line))) return null;
  const messageType = ENVELOPE_MESSAGE_TYPE.exec(body)?.[1];
  if (messageType !== undefined) return messageType === '942' ? 'mt942' : 'mt940';
  return INTERIM_TAGS.test(body) && !STATEMENT_BALANCES.test(body) ? 'mt942' : 'mt940';
}

// The columns that tell each built-in CSV layout (see csv-gateway.ts and BANK_CSV_PROFILE): a few are
// enough, so that a file that lacks a required one is still given to its parser, which names what lacks.
const GATEWAY_MARKS = ['id', 'gross', 'fee'];
const BANK_MARKS = ['date', 'amount'];

function csv(firstLine: string): DetectedFormat | null {
  const names = new Set(firstLine.split(',').map((name) => name.trim().replace(/^"|"$/g, '').trim().toLowerCase()));
  if (GATEWAY_MARKS.every((name) => names.has(name))) return 'csv:gateway';
  if (BANK_MARKS.every((name) => names.has(name))) return 'csv:bank';
  return null;
}

/** The format of a file that starts with `prefix`, or null when it is none of DETECTABLE_FORMATS. */
export function detectFormat(prefix: Uint8Array | string): DetectedFormat | null {
  // Latin-1 maps every byte to one character: the ASCII marks are found whatever the file's charset.
  const decoded = typeof prefix === 'string' ? prefix : Buffer.from(prefix).toString('latin1');
  const text = decoded
    .slice(0, DETECTION_PREFIX_BYTES_MAX)
    .replace(/^(\uFEFF|\u00EF\u00BB\u00BF)/, '')
    .replace(/^[ \t\r\n]+/, '');
  if (text.startsWith('<')) return camt(text);
  const mt = swift(text);
  if (mt !== null) return mt;
  if (text.startsWith('01,')) return 'bai2';
  return csv(text.split(/\r?\n/, 1)[0]);
}

/**
 * Reads up to DETECTION_PREFIX_BYTES_MAX bytes of the input, detects the format, and gives back an input
 * that yields the whole file again (the bytes read first, then the rest): the file is still read once.
 */
export async function detectInputFormat(
  input: StatementInput,
): Promise<{ format: DetectedFormat | null; input: StatementInput; close: () => Promise<void> }> {
  const iterator = input[Symbol.asyncIterator]();
  const head: Array<Buffer | Uint8Array | string> = [];
  let bytes = 0;
  let done = false;
  while (bytes < DETECTION_PREFIX_BYTES_MAX) {
    const next = await iterator.next();
    if (next.done === true) {
      done = true;
      break;
    }
    head.push(next.value);
    bytes += typeof next.value === 'string' ? Buffer.byteLength(next.value) : next.value.byteLength;
  }
  const prefix = Buffer.concat(head.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk)));
  const replayed: StatementInput = {
    async *[Symbol.asyncIterator]() {
      try {
        yield* head.splice(0, head.length);
        if (done) return;
        for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) yield next.value;
      } finally {
        // A reader that stops early (too many errors) closes the file it came from.
        await iterator.return?.();
      }
    },
  };
  return {
    format: detectFormat(prefix.subarray(0, DETECTION_PREFIX_BYTES_MAX)),
    input: replayed,
    // For a file that will not be read: closes what it came from.
    close: async () => {
      await iterator.return?.();
    },
  };
}
