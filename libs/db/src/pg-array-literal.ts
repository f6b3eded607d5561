/**
 * A PostgreSQL array literal for one query parameter, written in one pass. node-postgres escapes
 * array elements one generic step at a time; the posting path sends thousands of elements per batch
 * statement, under its account locks, so this plain loop saves real time. Only one-dimensional arrays
 * are sent by this project.
 */
export function pgArrayLiteral(values: readonly unknown[]): string {
  const plain = plainArrayLiteral(values);
  if (plain !== undefined) return plain;
  const parts = new Array<string>(values.length);
  // A batch's rows share their timestamps: each distinct one is formatted once.
  let lastTimeMs = Number.NaN;
  let lastTimeText = '';
  for (let index = 0; index < values.length; index++) {
    const value = values[index];
    if (value instanceof Date) {
      if (value.getTime() !== lastTimeMs) {
        lastTimeMs = value.getTime();
        lastTimeText = `"${value.toISOString()}"`;
      }
      parts[index] = lastTimeText;
    } else {
      parts[index] = element(value);
    }
  }
  return `{${parts.join(',')}}`;
}

/** Joins the elements of a text array while its quotes are escaped; NUL, which PostgreSQL's text never holds. */
const SEPARATOR = '\u0000';

/**
 * The common columns, all text without quotes or backslashes or all numbers, in one join: no string is
 * made per element (a statement import sends sixteen columns of 2,000 lines per batch).
 */
function plainArrayLiteral(values: readonly unknown[]): string | undefined {
  const kind = typeof values[0];
  if (kind === 'string') {
    let quotes = false;
    for (const value of values) {
      if (typeof value !== 'string' || value.indexOf('\\') !== -1 || value.indexOf(SEPARATOR) !== -1) return undefined;
      if (!quotes && value.indexOf('"') !== -1) quotes = true;
    }
    if (!quotes) return `{"${values.join('","')}"}`;
    // Quotes but no backslash (JSON texts, XML with attributes): escaped in the joined text at once, then the
    // separator, which no element holds, becomes the quoted comma.
    return `{"${values.join(SEPARATOR).replaceAll('"', '\\"').replaceAll(SEPARATOR, '","')}"}`;
  }
  if (kind === 'number' || kind === 'bigint') {
    for (const value of values) if (typeof value !== 'number' && typeof value !== 'bigint') return undefined;
    return `{${values.join(',')}}`;
  }
  return undefined;
}

function quoted(text: string): string {
  // Most elements (ids, codes, directions) hold neither character: no regular expression for them.
  if (text.indexOf('"') === -1 && text.indexOf('\\') === -1) return `"${text}"`;
  // JSON texts (a statement line's references) have quotes but seldom backslashes: no regular expression.
  const backslashesEscaped = text.indexOf('\\') === -1 ? text : text.replaceAll('\\', '\\\\');
  return `"${backslashesEscaped.replaceAll('"', '\\"')}"`;
}

function element(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  switch (typeof value) {
    case 'string':
      return quoted(value);
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
