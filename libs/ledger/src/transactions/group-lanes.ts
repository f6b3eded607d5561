import { BATCH_SIZE_MAX } from '../domain/limits';
import type { AccountsTaking } from './posting-engine';

// How a tenant's requests queue for group commit (PostingGroups): the lanes and how a group is taken.

/** A group of single postings is at most this many postings... */
export const POSTING_GROUP_ITEMS_MAX = 256;
/** ...and at most this much request JSON (a group's first request is taken whatever its size). */
export const POSTING_GROUP_BYTES_MAX = 1024 * 1024;
/**
 * Items of one tenant waiting in a lane for its next groups, at most, in groups of the lane's largest
 * size: beyond it a request is answered 503 (retry shortly) rather than queued behind seconds of work.
 */
export const QUEUED_GROUPS_MAX = 16;
/** How far down the queue a group looks for requests (past those that wait for an earlier one's key). */
const QUEUE_SCAN_MAX = 4 * POSTING_GROUP_ITEMS_MAX;

/**
 * The two kinds of request that are grouped, each in a queue of its own per tenant.
 * - `postings`: single postings (POST /v1/transactions). One group in flight, planned under its
 *   accounts' locks: nothing of the process waits for those locks, so planning ahead would only add a
 *   read to every group.
 * - `batches`: POST /v1/transactions/batch, whole batches grouped (a group is never more items than
 *   one batch may hold). Two groups in flight, planned on their accounts read ahead of the locks: the
 *   second claims its keys, reads and plans while the first holds the locks, then waits for them.
 */
export type GroupLane = 'postings' | 'batches';

export interface LaneBounds {
  groupsInFlight: number;
  itemsMax: number;
  bytesMax: number;
  taking: AccountsTaking;
}

export const LANES: Record<GroupLane, LaneBounds> = {
  postings: {
    groupsInFlight: 1,
    itemsMax: POSTING_GROUP_ITEMS_MAX,
    bytesMax: POSTING_GROUP_BYTES_MAX,
    taking: 'locked before planning',
  },
  batches: {
    groupsInFlight: 2,
    itemsMax: BATCH_SIZE_MAX,
    bytesMax: Number.POSITIVE_INFINITY,
    taking: 'read ahead of the locks',
  },
};

/**
 * The next group: the queue's head, then whatever fits, in arrival order, skipping a request that
 * shares a name (its key, the transaction it names) with one in this group or in one in flight: it
 * waits for that one's outcome (then replays it, or finds the hold resolved, the transaction reversed).
 */
export function takeGroup<W extends { bytes: number; size: number; names: readonly string[] }>(
  queue: W[],
  bounds: Pick<LaneBounds, 'itemsMax' | 'bytesMax'>,
  busyNames: ReadonlySet<string> = new Set(),
): W[] {
  const group: W[] = [];
  const names = new Set<string>();
  let bytes = 0;
  let items = 0;
  let scanned = 0;
  for (let index = 0; index < queue.length && scanned < QUEUE_SCAN_MAX; scanned++) {
    const waiting = queue[index]!;
    if (waiting.names.some((name) => names.has(name) || busyNames.has(name))) {
      index++;
      continue;
    }
    const first = group.length === 0;
    if (!first && (bytes + waiting.bytes > bounds.bytesMax || items + waiting.size > bounds.itemsMax)) break;
    for (const name of waiting.names) names.add(name);
    bytes += waiting.bytes;
    items += waiting.size;
    group.push(waiting);
    queue.splice(index, 1);
  }
  return group;
}
