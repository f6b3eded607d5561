/**
 * A copy of `text` that shares no memory with the string it was cut from. V8 keeps a substring as a view of
 * its parent (a "sliced string"): a 20-character reference cut from a 256 KiB chunk of a statement keeps the
 * whole chunk alive for as long as the reference is kept. Prepending a character and slicing it off again
 * makes V8 flatten the pair into a new string of the text's own length, which the result then points into.
 * Whatever a parser keeps beyond the chunk it was read from goes through here, so that what it retains is
 * what it counted.
 */
export function ownText(text: string): string {
  return ` ${text}`.slice(1);
}

/** Own copies of every string of a plain value (objects and arrays of strings), and how many characters. */
export function ownStrings<T>(value: T): { value: T; chars: number } {
  let chars = 0;
  const copy = (current: unknown): unknown => {
    if (typeof current === 'string') {
      chars += current.length;
      return ownText(current);
    }
    if (Array.isArray(current)) return current.map(copy);
    if (typeof current !== 'object' || current === null) return current;
    const copied: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(current)) copied[key] = copy(field);
    return copied;
  };
  return { value: copy(value) as T, chars };
}
