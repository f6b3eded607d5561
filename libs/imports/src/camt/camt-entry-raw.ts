import { RAW_CHARS_MAX } from '../limits';

/**
 * Characters kept of one raw text: one more than a line keeps, so that boundedRaw still marks the cut. Its
 * pieces are views of the text read: a raw text is kept only until the entry's lines are made, and what
 * outlives that is copied (a line's raw by the line builder, a TxDtls' by ownTransactionDetail).
 */
const RAW_TEXT_CHARS_MAX = RAW_CHARS_MAX + 1;

class RawText {
  text = '';

  add(piece: string): void {
    const room = RAW_TEXT_CHARS_MAX - this.text.length;
    if (room <= 0 || piece === '') return;
    this.text += piece.length > room ? piece.slice(0, room) : piece;
  }
}

/** An entry's raw texts: the whole Ntry, and for a split batch its head (all but the TxDtls) and each TxDtls. */
export interface EntryRaw {
  whole: string;
  head: string;
}

/** Where the raw texts are cut from: the text being read and the stream offset of its first character. */
export interface RawSource {
  readonly text: string;
  readonly textStart: number;
}

/**
 * The raw text of each entry and each of its TxDtls, cut from the XML as received (a line's `raw` is what the
 * bank wrote, as for every other format), instead of writing the element tree out again. It cuts from the
 * tokenizer's own text (the RawSource), told the stream offsets where an entry or a TxDtls starts and ends, and
 * before each write the offset every token has been told of: what precedes it goes to the open raw texts then,
 * while that text is still the tokenizer's. Each raw text is cut at RAW_CHARS_MAX.
 */
export class EntryRawRecorder {
  /** Stream offset up to which the open raw texts have their characters. */
  private mark = 0;
  private inEntry = false;
  private inDetail = false;
  private whole = new RawText();
  private head = new RawText();
  private detail = new RawText();

  constructor(private readonly source: RawSource) {}

  /** Called before each write, with the offset the tokenizer has told of every token to. */
  beforeWrite(told: number): void {
    if (this.inEntry) this.advance(told);
  }

  /** An entry's start tag begins at offset `at`. */
  startEntry(at: number): void {
    this.inEntry = true;
    this.inDetail = false;
    this.mark = at;
    this.whole = new RawText();
    this.head = new RawText();
  }

  /** A TxDtls of the entry begins at `at`. */
  startDetail(at: number): void {
    if (!this.inEntry || this.inDetail) return;
    this.advance(at);
    this.inDetail = true;
    this.detail = new RawText();
  }

  /** The raw text of the TxDtls that ends at `at`. */
  endDetail(at: number): string {
    if (!this.inDetail) return '';
    this.advance(at);
    this.inDetail = false;
    return this.detail.text;
  }

  endEntry(at: number): EntryRaw {
    this.advance(at);
    this.inEntry = false;
    this.inDetail = false;
    return { whole: this.whole.text, head: this.head.text };
  }

  private advance(to: number): void {
    if (to <= this.mark) return;
    const { text, textStart } = this.source;
    const piece = text.slice(this.mark - textStart, to - textStart);
    this.whole.add(piece);
    (this.inDetail ? this.detail : this.head).add(piece);
    this.mark = to;
  }
}
