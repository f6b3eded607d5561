// A WAL position (LSN) as PostgreSQL writes it: two hexadecimal halves of a 64-bit byte offset, "16/B374D848".
const LSN_PATTERN = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/;

/** The position as a number that orders as WAL does; undefined for any text that is not an LSN. */
export function parseWalPosition(text: string): bigint | undefined {
  const halves = LSN_PATTERN.exec(text);
  if (halves === null) return undefined;
  return (BigInt(`0x${halves[1]}`) << 32n) | BigInt(`0x${halves[2]}`);
}

export function formatWalPosition(position: bigint): string {
  return `${(position >> 32n).toString(16).toUpperCase()}/${(position & 0xffffffffn).toString(16).toUpperCase()}`;
}
