/**
 * A PostgreSQL array literal for one query parameter, written in one pass. node-postgres escapes
 * array elements one generic step at a time; the posting path sends thousands of elements per batch
 * statement, so this plain loop saves real time. Only one-dimensional arrays are sent by this project.
 */
export function pgArrayLiteral(values: readonly unknown[]): string {
  const parts = new Array<string>(values.length);
  for (let index = 0; index < values.length; index++) parts[index] = element(values[index]);
  return `{${parts.join(',')}}`;
}

function quoted(text: string): string {
  // Most texts have nothing to escape, and two plain searches cost less than a regular expression.
  if (!text.includes('"') && !text.includes('\\')) return `"${text}"`;
  return `"${text.replace(/[\\"]/g, '\\$&')}"`;
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
      if (value instanceof Date) return quoted(value.toISOString());
      if (value instanceof Uint8Array) return quoted(`\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`);
      throw new TypeError(`cannot send ${Object.prototype.toString.call(value)} as an array element`);
  }
}
