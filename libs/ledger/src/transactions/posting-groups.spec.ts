import { describe, expect, it } from 'vitest';
import { POSTING_GROUP_BYTES_MAX, POSTING_GROUP_ITEMS_MAX, takeGroup } from './posting-groups';

function waiting(name: string, bytes = 100) {
  return { name, bytes, key: { name } };
}

const names = (items: readonly { name: string }[]) => items.map((item) => item.name);

describe('takeGroup', () => {
  it('takes everything queued, in arrival order, up to the item bound', () => {
    const queue = Array.from({ length: POSTING_GROUP_ITEMS_MAX + 3 }, (_, index) => waiting(`k${index}`));
    const group = takeGroup(queue);
    expect(group).toHaveLength(POSTING_GROUP_ITEMS_MAX);
    expect(names(group.slice(0, 2))).toEqual(['k0', 'k1']);
    expect(names(queue)).toEqual([
      `k${POSTING_GROUP_ITEMS_MAX}`,
      `k${POSTING_GROUP_ITEMS_MAX + 1}`,
      `k${POSTING_GROUP_ITEMS_MAX + 2}`,
    ]);
  });

  it('stops at the byte bound, but always takes the first item', () => {
    const half = POSTING_GROUP_BYTES_MAX / 2;
    const queue = [waiting('big', POSTING_GROUP_BYTES_MAX * 2), waiting('a', half)];
    expect(names(takeGroup(queue))).toEqual(['big']);
    queue.push(waiting('b', half), waiting('c', 1));
    expect(names(takeGroup(queue))).toEqual(['a', 'b']);
    expect(names(queue)).toEqual(['c']);
  });

  it('leaves a second request with a key already in the group for the next group', () => {
    const queue = [waiting('x'), waiting('y'), waiting('x'), waiting('z'), waiting('x')];
    expect(names(takeGroup(queue))).toEqual(['x', 'y', 'z']);
    expect(names(takeGroup(queue))).toEqual(['x']);
    expect(names(takeGroup(queue))).toEqual(['x']);
    expect(queue).toEqual([]);
  });
});
