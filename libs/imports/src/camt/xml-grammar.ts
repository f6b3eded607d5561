// The characters, names, references and declaration of XML 1.0 (fifth edition), for XmlTokenizer.

export class XmlSyntaxError extends Error {
  override readonly name: string = 'XmlSyntaxError';

  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/** A bound the reader set was passed (not a break of XML's rules). */
export class XmlLimitError extends XmlSyntaxError {
  override readonly name = 'XmlLimitError';
}

export interface XmlDeclaration {
  version?: string;
  encoding?: string;
  standalone?: string;
}

/** A start tag: its name and attributes as written (qualified names, values with references replaced). */
export interface XmlStartTag {
  name: string;
  attributes: Record<string, string>;
}

/** Productions 2 (Char), 4 (NameStartChar) and 4a (NameChar), as regular expression classes. */
const CHAR = '\\t\\n\\r\\u0020-\\uD7FF\\uE000-\\uFFFD\\u{10000}-\\u{10FFFF}';
const NAME_START =
  ':A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D' +
  '\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
const NAME_MORE = '\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040';

export const INVALID_CHAR = new RegExp(`[^${CHAR}]`, 'u');
/** Production 5 (Name). */
export const NAME = new RegExp(`^[${NAME_START}][${NAME_START}${NAME_MORE}]*$`, 'u');

const SPACE = '[ \\t\\r\\n]';
const QUOTED = (value: string) => `(?:"(${value})"|'(${value})')`;
/** Production 23 (XMLDecl), whole: version, then encoding and standalone if given. */
const DECLARATION = new RegExp(
  `^<\\?xml${SPACE}+version${SPACE}*=${SPACE}*${QUOTED('1\\.[0-9]+')}` +
    `(?:${SPACE}+encoding${SPACE}*=${SPACE}*${QUOTED('[A-Za-z][-A-Za-z0-9._]*')})?` +
    `(?:${SPACE}+standalone${SPACE}*=${SPACE}*${QUOTED('yes|no')})?${SPACE}*\\?>$`,
);

/** The declaration `<?xml ...?>` says; null when it is not one. */
export function readDeclaration(text: string): XmlDeclaration | null {
  const match = DECLARATION.exec(text);
  if (match === null) return null;
  return { version: match[1] ?? match[2], encoding: match[3] ?? match[4], standalone: match[5] ?? match[6] };
}

export const LT = 60;
export const GT = 62;
export const SLASH = 47;
export const EQUALS = 61;
export const QUESTION = 63;
export const BANG = 33;

export function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 9 || code === 13;
}

/** Whether `code` may follow a name in markup (NaN, past the text's end, may not: the name may go on). */
export function endsName(code: number): boolean {
  return isSpace(code) || code === GT || code === SLASH || code === EQUALS || code === QUESTION;
}

/** Whether `text` holds `name` at `from`: compared character by character, cheaper than startsWith here. */
export function holdsAt(text: string, from: number, name: string): boolean {
  if (from + name.length > text.length) return false;
  for (let index = 0; index < name.length; index += 1)
    if (text.charCodeAt(from + index) !== name.charCodeAt(index)) return false;
  return true;
}

/** The offset of the next `char` in `text` from `from`, or the text's length when there is none. */
export function nextOf(text: string, char: string, from: number): number {
  const found = text.indexOf(char, from);
  return found === -1 ? text.length : found;
}

const ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };

type Fail = (message: string) => never;

/** Every line end (CRLF, or a CR alone) as one LF, as XML reads them. */
export function withLineFeeds(text: string): string {
  return text.indexOf('\r') === -1 ? text : text.replace(/\r\n?/g, '\n');
}

/**
 * Text or an attribute value with its references replaced: the five entities of XML and character
 * references to allowed characters; line ends become `\n` (in an attribute value, every white space a space).
 */
export function decodedText(raw: string, attribute: boolean, fail: Fail): string {
  // Most texts hold no reference: no closure, no new string unless a line end or white space is replaced.
  if (raw.indexOf('&') === -1) return literalText(raw, attribute);
  let out = '';
  let from = 0;
  for (let amp = raw.indexOf('&'); amp !== -1; amp = raw.indexOf('&', from)) {
    const semicolon = raw.indexOf(';', amp + 1);
    if (semicolon === -1) fail('unterminated entity reference.');
    out += literalText(raw.slice(from, amp), attribute) + reference(raw.slice(amp + 1, semicolon), fail);
    from = semicolon + 1;
  }
  return out + literalText(raw.slice(from), attribute);
}

/** A piece of text with no reference in it: line ends made `\n`; in an attribute value, white space a space. */
function literalText(part: string, attribute: boolean): string {
  const lines = withLineFeeds(part);
  return attribute ? lines.replace(/[\t\n]/g, ' ') : lines;
}

function reference(name: string, fail: Fail): string {
  if (name.charCodeAt(0) !== 35) {
    if (!Object.hasOwn(ENTITIES, name))
      fail(NAME.test(name) ? `undefined entity: ${name}.` : 'disallowed character in entity name.');
    return ENTITIES[name];
  }
  const hex = name.charCodeAt(1) === 120;
  const digits = name.slice(hex ? 2 : 1);
  if (!(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits)) fail(`malformed character entity: &${name};.`);
  const code = Number.parseInt(digits, hex ? 16 : 10);
  const char = code <= 0x10ffff ? String.fromCodePoint(code) : '';
  if (char === '' || INVALID_CHAR.test(char)) fail(`malformed character entity: &${name};.`);
  return char;
}
