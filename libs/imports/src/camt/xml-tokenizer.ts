import {
  BANG,
  decodedText,
  EQUALS,
  endsName,
  GT,
  holdsAt,
  INVALID_CHAR,
  isSpace,
  LT,
  nextOf,
  QUESTION,
  readDeclaration,
  SLASH,
  withLineFeeds,
  type XmlDeclaration,
  XmlLimitError,
  XmlSyntaxError,
  type XmlStartTag,
} from './xml-grammar';
import { nameEnd, XmlNames } from './xml-names';
import { NO_ATTRIBUTES } from './xml-node';

export {
  XmlLimitError,
  XmlSyntaxError,
  type XmlDeclaration,
  type XmlStartTag,
} from './xml-grammar';

// A strict, streaming XML 1.0 reader for documents without a DTD (camt has none and refuses one): every
// well-formedness rule of the XML 1.0 recommendation that applies to such a document is checked, and a
// document breaking one is refused at the first break with its line. It works a token at a time on the text
// it was given (a start tag, an end tag, a run of text, a comment...), finding each token's end with the
// engine's string search, where saxes reads one character at a time and builds an object per start tag.
// Element names are checked once per distinct name. The outcome of every document, accepted with the same
// elements, attributes and texts, or refused, is checked against saxes itself (xml-tokenizer.spec.ts).

/** What the reader is told, in document order; `start` and `end` are offsets in the stream of text given. */
export interface XmlTokenHandlers {
  /**
   * A start tag, read whole: `line` is where its `<` is, `start` its offset. Attributes as written (qnames).
   * `tag` is one object refilled for every start tag: valid during the call only.
   */
  openTag(tag: XmlStartTag, line: number, start: number): void;
  /** Character data inside the root, entity references replaced and line ends made `\n`, CDATA included. */
  text(text: string): void;
  /** An end tag (or the end of an empty-element tag) that closes the innermost open element; `end` is after it. */
  closeTag(name: string, end: number): void;
  /** A document type declaration: what the reader decides (the camt reader refuses it). */
  doctype(): void;
}

export class XmlTokenizer {
  /** The line of the token being read (1-based). */
  line = 1;
  readonly declaration: XmlDeclaration = {};
  /** Stream offset up to which every token has been told of; what follows is held until it is whole. */
  told = 0;
  /**
   * The text of the latest write (what was held, then the chunk), kept until the next write, and the stream
   * offset of its first character: a reader that cuts raw text at the events' offsets cuts it from here.
   */
  text = '';
  textStart = 0;
  private pending = '';
  private started = false;
  private rootSeen = false;
  private rootClosed = false;
  private readonly open: string[] = [];
  private readonly names = new XmlNames((message) => this.fail(message));
  /** What openTag is handed: one object, refilled. */
  private readonly tag: XmlStartTag = { name: '', attributes: NO_ATTRIBUTES };
  /** Where an XML declaration may be: the stream's start, after a byte order mark. */
  private declarationAt = 0;
  // Line counting over the text being read: counted up to linesFrom; the next LF and CR found (searched
  // again only once passed, so each character is searched once).
  private linesFrom = 0;
  private nextLf = -1;
  private nextCr = -1;
  /** The nearer of the two: no line break before it. */
  private nextBreak = -1;

  /** startTagCharsMax: a longer start tag is refused, whatever the cuts between chunks (none by default). */
  constructor(
    private readonly handlers: XmlTokenHandlers,
    private readonly startTagCharsMax = Number.POSITIVE_INFINITY,
  ) {}

  /** Reads what `chunk` completes; throws XmlSyntaxError at the first break of the rules. */
  write(chunk: string): void {
    let text = this.pending === '' ? chunk : this.pending + chunk;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) {
        text = text.slice(1);
        this.told += 1;
        this.declarationAt = 1;
      }
    }
    const used = this.read(text, false);
    this.pending = used === text.length ? '' : text.slice(used);
  }

  /** The end of the document: what is held must be whole, and the root closed. */
  close(): void {
    const text = this.pending;
    this.pending = '';
    this.read(text, true);
    if (this.open.length > 0) this.fail(`unclosed tag: ${this.open[this.open.length - 1]}`);
    if (!this.rootSeen) this.fail('document must contain a root element.');
  }

  private fail(message: string): never {
    throw new XmlSyntaxError(message, this.line);
  }

  private readonly failWith = (message: string): never => this.fail(message);

  /** Reads the whole tokens of `text`; answers how many characters were used. */
  private read(text: string, last: boolean): number {
    this.text = text;
    this.textStart = this.told;
    let at = 0;
    this.linesFrom = 0;
    this.nextLf = -1;
    this.nextCr = -1;
    this.nextBreak = -1;
    while (at < text.length) {
      this.countLines(text, at);
      const next = text.charCodeAt(at) === LT ? this.markup(text, at, last) : this.characters(text, at, last);
      if (next === -1) break;
      this.told += next - at;
      at = next;
    }
    if (last && at < text.length) this.fail(`the document ends inside ${this.tokenName(text, at)}.`);
    return at;
  }

  /** Brings this.line to offset `to` of the text being read: LF, CRLF and a lone CR are one line break each. */
  private countLines(text: string, to: number): void {
    if (to <= this.nextBreak) return;
    let at = this.linesFrom;
    for (;;) {
      if (this.nextLf < at) this.nextLf = nextOf(text, '\n', at);
      if (this.nextCr < at) this.nextCr = nextOf(text, '\r', at);
      this.nextBreak = Math.min(this.nextLf, this.nextCr);
      if (this.nextBreak >= to) break;
      this.line += 1;
      const lineBreak = this.nextBreak;
      at = lineBreak === this.nextCr && this.nextLf === lineBreak + 1 ? lineBreak + 2 : lineBreak + 1;
    }
    this.linesFrom = at;
  }

  private tokenName(text: string, at: number): string {
    if (text.startsWith('<!--', at)) return 'a comment';
    if (text.startsWith('<![CDATA[', at)) return 'a CDATA section';
    if (text.startsWith('<?', at)) return 'a processing instruction';
    if (text.startsWith('</', at)) return 'an end tag';
    return 'a tag';
  }

  /** Character data from `at` to the next `<`; -1 when it may go on in the next chunk. */
  private characters(text: string, at: number, last: boolean): number {
    let end = text.indexOf('<', at);
    if (end === -1) {
      if (!last) return -1;
      end = text.length;
    }
    const raw = text.slice(at, end);
    if (INVALID_CHAR.test(raw)) this.failAt(text, at, raw, INVALID_CHAR, 'disallowed character.');
    if (raw.indexOf(']]>') !== -1) this.failAt(text, at, raw, /]]>/, 'the string "]]>" is disallowed in char data.');
    const inRoot = this.open.length > 0;
    if (!inRoot && !/^[ \t\r\n]*$/.test(raw))
      this.failAt(text, at, raw, /[^ \t\r\n]/, 'text data outside of root node.');
    if (inRoot) this.handlers.text(decodedText(raw, false, this.failWith));
    return end;
  }

  /** Fails on the line of the first match of `pattern` in `raw`, the part of `text` from `at`. */
  private failAt(text: string, at: number, raw: string, pattern: RegExp, message: string): never {
    this.countLines(text, at + Math.max(raw.search(pattern), 0));
    this.fail(message);
  }

  /** The token starting with `<` at `at`; answers where it ends, or -1 when it is not whole yet. */
  private markup(text: string, at: number, last: boolean): number {
    if (at + 1 >= text.length) return last ? this.fail('unexpected end.') : -1;
    const second = text.charCodeAt(at + 1);
    if (second === SLASH) return this.endTag(text, at);
    if (second === QUESTION) return this.instruction(text, at);
    if (second === BANG) return this.declarationLike(text, at, last);
    return this.startTag(text, at);
  }

  private skipSpaces(text: string, from: number): number {
    let at = from;
    while (at < text.length && isSpace(text.charCodeAt(at))) at += 1;
    return at;
  }

  private startTag(text: string, at: number): number {
    if (this.rootClosed) this.fail('documents may contain only one root.');
    // No `>` after it, the tag cannot be whole yet: not read again with every chunk of a long start tag.
    if (text.indexOf('>', at + 1) === -1) return this.startTagWaits(text, at);
    const element = this.names.at(text, at + 1);
    if (element === null) return this.startTagWaits(text, at);
    const name = element.name;
    let attributes = NO_ATTRIBUTES;
    let cursor = element.end;
    for (;;) {
      const spaced = this.skipSpaces(text, cursor);
      if (spaced >= text.length) return this.startTagWaits(text, at);
      const code = text.charCodeAt(spaced);
      if (code === GT || code === SLASH) {
        if (code === SLASH) {
          if (spaced + 1 >= text.length) return this.startTagWaits(text, at);
          if (text.charCodeAt(spaced + 1) !== GT) this.fail('forward-slash in opening tag not followed by >.');
        }
        const end = code === GT ? spaced + 1 : spaced + 2;
        if (end - at > this.startTagCharsMax) this.startTagTooLong();
        this.openElement(name, attributes);
        if (code === SLASH) this.closeElement(name, this.told + end - at);
        return end;
      }
      if (spaced === cursor) this.fail('no whitespace between attributes.');
      const found = this.names.at(text, spaced);
      if (found === null) return this.startTagWaits(text, at);
      const attribute = found.name;
      const equals = this.skipSpaces(text, found.end);
      if (equals >= text.length) return this.startTagWaits(text, at);
      if (text.charCodeAt(equals) !== EQUALS) this.fail(`attribute ${attribute} without value.`);
      const quoteAt = this.skipSpaces(text, equals + 1);
      if (quoteAt >= text.length) return this.startTagWaits(text, at);
      const quote = text[quoteAt];
      if (quote !== '"' && quote !== "'") this.fail('unquoted attribute value.');
      const close = text.indexOf(quote, quoteAt + 1);
      if (close === -1) return this.startTagWaits(text, at);
      const raw = text.slice(quoteAt + 1, close);
      if (raw.indexOf('<') !== -1) this.fail('disallowed character: < in attribute value.');
      if (INVALID_CHAR.test(raw)) this.fail('disallowed character.');
      if (attributes === NO_ATTRIBUTES) attributes = {};
      else if (Object.hasOwn(attributes, attribute)) this.fail(`duplicate attribute: ${attribute}.`);
      attributes[attribute] = decodedText(raw, true, this.failWith);
      cursor = close + 1;
    }
  }

  /** -1: the start tag at `at` is not whole yet; it fails once it is longer than startTagCharsMax. */
  private startTagWaits(text: string, at: number): -1 {
    if (text.length - at > this.startTagCharsMax) this.startTagTooLong();
    return -1;
  }

  private startTagTooLong(): never {
    throw new XmlLimitError(`a start tag is longer than ${this.startTagCharsMax} characters`, this.line);
  }

  private openElement(name: string, attributes: Record<string, string>): void {
    this.rootSeen = true;
    this.open.push(name);
    this.tag.name = name;
    this.tag.attributes = attributes;
    this.handlers.openTag(this.tag, this.line, this.told);
  }

  private closeElement(name: string, end: number): void {
    this.open.pop();
    if (this.open.length === 0) this.rootClosed = true;
    this.handlers.closeTag(name, end);
  }

  private endTag(text: string, at: number): number {
    const close = text.indexOf('>', at + 2);
    if (close === -1) return -1;
    const top = this.open[this.open.length - 1];
    // Mostly the name of the element open: compared in place, no new string.
    const closesTop = top !== undefined && holdsAt(text, at + 2, top) && endsName(text.charCodeAt(at + 2 + top.length));
    const end = closesTop ? at + 2 + top.length : nameEnd(text, at + 2);
    const name = closesTop ? top : this.names.checked(text, at + 2, end);
    if (this.skipSpaces(text, end) !== close) this.fail('disallowed character in closing tag.');
    if (top === undefined) this.fail(`the end tag </${name}> closes no open element.`);
    if (top !== name) this.fail(`the end tag </${name}> does not close the open <${top}>.`);
    this.closeElement(name, this.told + close + 1 - at);
    return close + 1;
  }

  /** `<?xml ...?>` at the very start, or another processing instruction (skipped). */
  private instruction(text: string, at: number): number {
    const close = text.indexOf('?>', at + 2);
    if (close === -1) return -1;
    const end = close + 2;
    const body = text.slice(at, end);
    const targetEnd = nameEnd(text, at + 2);
    const target = this.names.checked(text, at + 2, Math.min(targetEnd, close));
    if (target === 'xml') {
      if (this.told !== this.declarationAt) this.fail('XML declaration allowed only at the start of the document.');
      const declared = readDeclaration(body);
      if (declared === null) this.fail('malformed XML declaration.');
      Object.assign(this.declaration, declared);
    } else {
      if (target.toLowerCase() === 'xml') this.fail('xml is a reserved processing instruction target.');
      if (targetEnd < close && !isSpace(text.charCodeAt(targetEnd)))
        this.fail('processing instructions are expected to have a space after the target.');
      if (INVALID_CHAR.test(body)) this.fail('disallowed character.');
    }
    return end;
  }

  /** `<!--` comments (skipped), `<![CDATA[` sections (text) and `<!DOCTYPE` (told of, then refused). */
  private declarationLike(text: string, at: number, last: boolean): number {
    if (text.startsWith('<!--', at)) return this.comment(text, at);
    if (text.startsWith('<![CDATA[', at)) return this.cdata(text, at);
    if (text.startsWith('<!DOCTYPE', at)) {
      this.handlers.doctype();
      this.fail('a DOCTYPE is not read.');
    }
    const rest = text.slice(at);
    if (rest.length < 9 && ['<!--', '<![CDATA[', '<!DOCTYPE'].some((start) => start.startsWith(rest)))
      return last ? this.fail('unexpected end.') : -1;
    return this.fail('disallowed character after <!.');
  }

  private comment(text: string, at: number): number {
    const close = text.indexOf('-->', at + 4);
    if (close === -1) return -1;
    const body = text.slice(at + 4, close);
    if (body.indexOf('--') !== -1 || body.endsWith('-')) this.fail('double dash in comment.');
    if (INVALID_CHAR.test(body)) this.fail('disallowed character.');
    return close + 3;
  }

  private cdata(text: string, at: number): number {
    const close = text.indexOf(']]>', at + 9);
    if (close === -1) return -1;
    if (this.open.length === 0) this.fail('CDATA section outside of root node.');
    const body = text.slice(at + 9, close);
    if (INVALID_CHAR.test(body)) this.fail('disallowed character.');
    this.handlers.text(withLineFeeds(body));
    return close + 3;
  }
}
