/**
 * A PostgreSQL array literal for one query parameter, written in one pass. node-postgres escapes array
 * elements one generic step at a time; the posting path sends thousands of elements per batch statement,
 * under its account locks, and a statement import sends sixteen columns of 2,000 lines per batch, so this
 * plain loop saves real time. Only one-dimensional arrays are sent by this project.
 *
 * The literal is grown by concatenation, which V8 keeps as a rope until the driver encodes it: no string is
 * made per element and no text is scanned again once it is written. Only an element holding a quote or a
 * backslash (JSON texts, XML with attributes) is copied, to escape them.
 */
export function pgArrayLiteral(values: readonly unknown[]): string {
  let literal = '{';
  // A batch's rows share their timestamps: each distinct one is formatted once.
  let lastTimeMs = Number.NaN;
  let lastTimeText = '';
  for (let index = 0; index < values.length; index++) {
    if (index > 0) literal += ',';
    const value = values[index];
    if (typeof value === 'string') literal += quoted(value);
    else if (value instanceof Date) {
      if (value.getTime() !== lastTimeMs) {
        lastTimeMs = value.getTime();
        lastTimeText = `"${value.toISOString()}"`;
      }
      literal += lastTimeText;
    } else literal += element(value);
  }
  return `${literal}}`;
}

function quoted(text: string): string {
  // Most elements (ids, codes, dates) hold neither character: no copy for them.
  if (text.indexOf('"') === -1 && text.indexOf('\\') === -1) return `"${text}"`;
  // JSON texts (a statement line's references) have quotes but seldom backslashes: no regular expression.
  const backslashesEscaped = text.indexOf('\\') === -1 ? text : text.replaceAll('\\', '\\\\');
  return `"${backslashesEscaped.replaceAll('"', '\\"')}"`;
}

function element(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  switch (typeof value) {
    case 'number':
    case 'bigint':
      return String(value);
    case 'boolean':
      return value ? 't' : 'f';
    default:
      if (value instanceof Uint8Array)
        return `"\\\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}"`;
      throw new TypeError(`cannot send ${Object.prototype.toString.call(value)} as an array element`);
  }
}
