/**
 * The first key that appears twice in one object of a JSON text, or null. JSON.parse keeps the last
 * of two equal keys without a word, so `{"amount":"1","amount":"1000"}` would mean what a careless or
 * hostile client did not show; such a body is refused instead. One linear pass over the text, no
 * recursion; text that is not JSON is left to the parser to refuse.
 */
export function firstDuplicateKey(text: string): string | null {
  // For each open object the keys seen so far; null for an open array.
  const open: (Set<string> | null)[] = [];
  let expectingKey = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (char === QUOTE) {
      const end = stringEnd(text, index);
      const keys = open[open.length - 1];
      if (expectingKey && keys) {
        const key = decodedString(text, index, end);
        if (key === undefined) return null;
        if (keys.has(key)) return key;
        keys.add(key);
        expectingKey = false;
      }
      index = end;
    } else if (char === OPEN_BRACE) {
      open.push(new Set());
      expectingKey = true;
    } else if (char === OPEN_BRACKET) {
      open.push(null);
      expectingKey = false;
    } else if (char === CLOSE_BRACE || char === CLOSE_BRACKET) {
      open.pop();
      expectingKey = false;
    } else if (char === COMMA) {
      expectingKey = open[open.length - 1] instanceof Set;
    }
  }
  return null;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/** Index of the quote that closes the string opened at `start` (or the end of the text). */
function stringEnd(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length) {
    const char = text.charCodeAt(index);
    if (char === BACKSLASH) index += 2;
    else if (char === QUOTE) return index;
    else index += 1;
  }
  return text.length;
}

/** The string's value, escapes resolved the way JSON.parse resolves them; undefined if it is not valid JSON. */
function decodedString(text: string, start: number, end: number): string | undefined {
  const raw = text.slice(start + 1, end);
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(text.slice(start, end + 1)) as string;
  } catch {
    return undefined;
  }
}
