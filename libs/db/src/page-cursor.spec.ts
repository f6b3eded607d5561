import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, pageOf } from './page-cursor';

const rows = (count: number) => Array.from({ length: count }, (_, index) => ({ id: `row-${index + 1}` }));
const idOf = (row: { id: string }) => [row.id];

describe('pageOf', () => {
  it('keeps the first `limit` rows and names the last of them when one more was read', () => {
    const page = pageOf(rows(4), 3, idOf);
    expect(page.data.map((row) => row.id)).toEqual(['row-1', 'row-2', 'row-3']);
    expect(page.nextCursor).toBe(encodeCursor(['row-3']));
    expect(decodeCursor(page.nextCursor!, /^row-\d$/)).toEqual(['row-3']);
  });

  it('answers no cursor when the rows fit in the page', () => {
    expect(pageOf(rows(3), 3, idOf)).toEqual({ data: rows(3), nextCursor: null });
    expect(pageOf(rows(1), 3, idOf)).toEqual({ data: rows(1), nextCursor: null });
    expect(pageOf([], 3, idOf)).toEqual({ data: [], nextCursor: null });
  });

  it('encodes every part the cursor function gives, in order', () => {
    const page = pageOf([{ n: 1 }, { n: 2 }], 1, (row) => [String(row.n), 'b']);
    expect(page).toEqual({ data: [{ n: 1 }], nextCursor: encodeCursor(['1', 'b']) });
  });

  it('leaves the rows it was given as they were', () => {
    const read = rows(5);
    pageOf(read, 2, idOf);
    expect(read).toHaveLength(5);
  });
});
