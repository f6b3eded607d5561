/** V8's SlicedString::kMinLength and ConsString::kMinLength: no view of another string is shorter. */
const VIEW_CHARS_MIN = 13;

/**
 * A copy of `text` that shares no memory with the string it was cut from. V8 keeps a substring as a view of
 * its parent (a "sliced string"): a 20-character reference cut from a 256 KiB chunk of a statement keeps the
 * whole chunk alive for as long as the reference is kept. Prepending a character and slicing it off again
 * makes V8 flatten the pair into a new string of the text's own length, which the result then points into.
 * Whatever a parser keeps beyond the chunk it was read from goes through here, so that what it retains is
 * what it counted.
 */
export function ownText(text: string): string {
  // V8 makes neither a slice nor a concatenation shorter than this a view: such a string is its own copy
  // already (most of a statement's fields are: dates, amounts, codes, element names).
  if (text.length < VIEW_CHARS_MIN) return text;
  return ` ${text}`.slice(1);
}

/** Own copies of every string of a plain value (objects and arrays of strings), and how many characters. */
export function ownStrings<T>(value: T): { value: T; chars: number } {
  const counter = { chars: 0 };
  return { value: ownCopy(value, counter) as T, chars: counter.chars };
}

// Plain loops: this runs for every camt TxDtls and every statement header.
function ownCopy(current: unknown, counter: { chars: number }): unknown {
  if (typeof current === 'string') {
    counter.chars += current.length;
    return ownText(current);
  }
  if (typeof current !== 'object' || current === null) return current;
  if (Array.isArray(current)) {
    const copied: unknown[] = new Array(current.length);
    for (let index = 0; index < current.length; index += 1) copied[index] = ownCopy(current[index], counter);
    return copied;
  }
  const copied: Record<string, unknown> = {};
  for (const key of Object.keys(current)) copied[key] = ownCopy((current as Record<string, unknown>)[key], counter);
  return copied;
}
