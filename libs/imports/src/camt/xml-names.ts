import { endsName, holdsAt, NAME } from './xml-grammar';

/** Distinct names remembered as valid; past this, names are checked each time they are read. */
const KNOWN_NAMES_MAX = 4096;
/**
 * Names remembered per first character (camt's samples have at most 18 element names on one letter): a
 * crafted file of many names on one letter cannot make each tag compare with thousands.
 */
const KNOWN_NAMES_PER_FIRST_CHAR_MAX = 32;

/** Where the name starting at `from` ends: at a space, `/`, `>`, `=`, `?` or the end of the text. */
export function nameEnd(text: string, from: number): number {
  let at = from;
  while (at < text.length && !endsName(text.charCodeAt(at))) at += 1;
  return at;
}

/**
 * The element and attribute names of one document, each checked against XML's Name production once: a name
 * read before is found by its first character and compared in place, so reading it again makes no string and
 * every element of one name shares one string (an own copy, holding on to no chunk).
 */
export class XmlNames {
  private readonly byFirstAscii: Array<string[] | undefined> = new Array(128).fill(undefined);
  private readonly byFirstOther = new Map<number, string[]>();
  private count = 0;
  /** What at() answers: one object, refilled. */
  private readonly found = { name: '', end: 0 };

  constructor(private readonly fail: (message: string) => never) {}

  /** The name at `from` and where it ends; null when it may go on in the next chunk. */
  at(text: string, from: number): { name: string; end: number } | null {
    const known = this.known(text, from);
    if (known !== undefined) {
      this.found.name = known;
      this.found.end = from + known.length;
      return this.found;
    }
    const end = nameEnd(text, from);
    if (end >= text.length) return null;
    this.found.name = this.checked(text, from, end);
    this.found.end = end;
    return this.found;
  }

  /** The name from `from` to `to`, checked, and remembered (up to KNOWN_NAMES_MAX). */
  checked(text: string, from: number, to: number): string {
    const known = this.known(text, from);
    if (known !== undefined && known.length === to - from) return known;
    const name = text.slice(from, to);
    if (!NAME.test(name)) this.fail(name === '' ? 'a name is missing.' : `disallowed name: ${JSON.stringify(name)}.`);
    const first = name.charCodeAt(0);
    const candidates = this.candidates(first);
    if (this.count >= KNOWN_NAMES_MAX || (candidates?.length ?? 0) >= KNOWN_NAMES_PER_FIRST_CHAR_MAX) return name;
    const kept = ` ${name}`.slice(1);
    if (candidates !== undefined) candidates.push(kept);
    else if (first < 128) this.byFirstAscii[first] = [kept];
    else this.byFirstOther.set(first, [kept]);
    this.count += 1;
    return kept;
  }

  /** A name read before at `from`, followed by what ends a name; undefined when there is none. */
  private known(text: string, from: number): string | undefined {
    const candidates = this.candidates(text.charCodeAt(from));
    if (candidates === undefined) return undefined;
    for (let index = 0; index < candidates.length; index += 1) {
      const name = candidates[index];
      if (holdsAt(text, from, name) && endsName(text.charCodeAt(from + name.length))) return name;
    }
    return undefined;
  }

  private candidates(first: number): string[] | undefined {
    return first < 128 ? this.byFirstAscii[first] : this.byFirstOther.get(first);
  }
}
