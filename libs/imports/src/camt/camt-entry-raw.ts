import { RAW_CHARS_MAX } from '../limits';
import { ownText } from '../own-text';
import { XML_NAME_CHARS_MAX } from './xml-element-limits';

/**
 * Characters kept of one raw text: one more than a line keeps, so that boundedRaw still marks the cut. Each
 * piece added is an own copy (see ownText), so a kept text never holds on to the chunks it was cut from.
 */
const RAW_TEXT_CHARS_MAX = RAW_CHARS_MAX + 1;

class RawText {
  text = '';

  add(piece: string): void {
    const room = RAW_TEXT_CHARS_MAX - this.text.length;
    if (room <= 0 || piece === '') return;
    this.text += ownText(piece.length > room ? piece.slice(0, room) : piece);
  }
}

/**
 * saxes tells of a start tag once it has read its name and the character after it; its `<` is at most this
 * far back (a longer name is refused, see elementProblem), so a chunk's last characters are kept this long.
 */
const TAG_START_CHARS_BACK = XML_NAME_CHARS_MAX + 2;

/** An entry's raw texts: the whole Ntry, and for a split batch its head (all but the TxDtls) and each TxDtls. */
export interface EntryRaw {
  whole: string;
  head: string;
}

/**
 * The raw text of each entry and each of its TxDtls, cut from the XML as received (a line's `raw` is what the
 * bank wrote, as for every other format), instead of writing the element tree out again. It is told every
 * chunk before saxes is, and the stream offsets (saxes' `position`) where an entry or a TxDtls starts and
 * ends; it keeps only the text not yet handed to a raw text, and every raw text is cut at RAW_CHARS_MAX.
 */
export class EntryRawRecorder {
  /** Text of the stream from offset sourceStart on; its last characters while no entry is open. */
  private source = '';
  private sourceStart = 0;
  /** Stream offset up to which the open raw texts have their characters. */
  private mark = 0;
  /** Where saxes told of the start tag being read (-1: none); its `<` is kept until the tag is read. */
  private tagTold = -1;
  private inEntry = false;
  private inDetail = false;
  private whole = new RawText();
  private head = new RawText();
  private detail = new RawText();

  /** Called with every chunk before saxes reads it. */
  append(chunk: string): void {
    const end = this.sourceStart + this.source.length;
    if (this.inEntry) {
      // What saxes has read goes to the open texts now, but for a start tag it has not told of yet or is reading.
      this.advance(Math.max(this.mark, this.keptFrom(end)));
      this.source = this.source.slice(this.mark - this.sourceStart) + chunk;
      this.sourceStart = this.mark;
      return;
    }
    const kept = Math.min(this.source.length, end - this.keptFrom(end));
    this.source = this.source.slice(this.source.length - kept) + chunk;
    this.sourceStart = end - kept;
  }

  /** The offset from which the text must stay: a start tag saxes has not told of, or has and is reading. */
  private keptFrom(end: number): number {
    const from = end - TAG_START_CHARS_BACK;
    return this.tagTold === -1 ? from : Math.min(from, this.tagTold - TAG_START_CHARS_BACK);
  }

  /** saxes has told of a start tag (at its `opentagstart`), at stream offset `told`. */
  tagStarted(told: number): void {
    this.tagTold = told;
  }

  /** The start tag told of is read whole (its `opentag`), after startEntry or startDetail if it opens one. */
  tagRead(): void {
    this.tagTold = -1;
  }

  /** The offset of the `<` of the start tag being read. */
  private tagStart(): number {
    const found = this.source.lastIndexOf('<', this.tagTold - this.sourceStart - 1);
    return found === -1 ? this.sourceStart : this.sourceStart + found;
  }

  /** The start tag being read opens an entry. */
  startEntry(): void {
    this.inEntry = true;
    this.inDetail = false;
    this.mark = this.tagStart();
    this.whole = new RawText();
    this.head = new RawText();
  }

  /** The start tag being read opens a TxDtls of the entry. */
  startDetail(): void {
    if (!this.inEntry || this.inDetail) return;
    this.advance(this.tagStart());
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
