import { describe, expect, it } from 'vitest';
import { formatWalPosition, parseWalPosition } from './wal-position';

describe('WAL positions', () => {
  it('orders positions as WAL does, whatever the case or width of the halves', () => {
    expect(parseWalPosition('0/0')).toBe(0n);
    expect(parseWalPosition('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
    expect(parseWalPosition('16/b374d848')).toBe(parseWalPosition('16/B374D848'));
    expect(parseWalPosition('1/0')! > parseWalPosition('0/FFFFFFFF')!).toBe(true);
  });

  it('refuses anything that is not an LSN', () => {
    for (const text of ['', '16', '16/', '/1', 'G/1', '123456789/0', '0/0 ', '-1/0', '0x1/0']) {
      expect(parseWalPosition(text), text).toBeUndefined();
    }
  });

  it('writes a position back as PostgreSQL does', () => {
    expect(formatWalPosition(parseWalPosition('16/B374D848')!)).toBe('16/B374D848');
    expect(formatWalPosition(0n)).toBe('0/0');
  });
});
