import { RAW_CHARS_MAX } from '../limits';

/**
 * Characters kept of one raw text: one more than a line keeps, so that boundedRaw still marks the cut. Its
 * pieces are views of the text received: a raw text is kept only until the entry's lines are made, and what
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

/**
 * The raw text of each entry and each of its TxDtls, cut from the XML as received (a line's `raw` is what the
 * bank wrote, as for every other format), instead of writing the element tree out again. It is given every
 * chunk before the tokenizer is, and the stream offsets where an entry or a TxDtls starts and ends; it keeps
 * only the text no event has passed yet and the text not yet handed to a raw text, each cut at RAW_CHARS_MAX.
 */
export class EntryRawRecorder {
  /** Text of the stream from offset sourceStart on. */
  private source = '';
  private sourceStart = 0;
  /** Stream offset up to which the open raw texts have their characters. */
  private mark = 0;
  private inEntry = false;
  private inDetail = false;
  private whole = new RawText();
  private head = new RawText();
  private detail = new RawText();

  /** Called with every chunk before the tokenizer reads it; `told`: the offset it has told of every token to. */
  append(chunk: string, told: number): void {
    // No later event is before `told`: what precedes it goes to the open texts now, or is dropped.
    if (this.inEntry) this.advance(told);
    const from = Math.max(told, this.mark, this.sourceStart);
    this.source = this.source.slice(from - this.sourceStart) + chunk;
    this.sourceStart = from;
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
    const piece = this.source.slice(this.mark - this.sourceStart, to - this.sourceStart);
    this.whole.add(piece);
    (this.inDetail ? this.detail : this.head).add(piece);
    this.mark = to;
  }
}
