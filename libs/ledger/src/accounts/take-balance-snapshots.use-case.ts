import { Injectable } from '@nestjs/common';
import { BACKDATE_WINDOW_MS } from '../domain/effective-at';
import { AccountRepository } from './account.repository';

export const SNAPSHOT_PAGE_SIZE = 500;
export const SNAPSHOT_PAGES_PER_RUN_MAX = 2_000;
/** Longer than any posting transaction can run, so nothing effective before the boundary is still in flight. */
const IN_FLIGHT_MARGIN_MS = 3600 * 1000;
const DAY_MS = 24 * 3600 * 1000;

/** The last midnight (UTC) that no posting can reach back past any more. */
export function finalSnapshotBoundary(now: Date): Date {
  const settled = now.getTime() - BACKDATE_WINDOW_MS - IN_FLIGHT_MARGIN_MS;
  return new Date(Math.floor(settled / DAY_MS) * DAY_MS);
}

/** The worker's job: one snapshot per account and settled day with activity, in bounded pages. */
@Injectable()
export class TakeBalanceSnapshotsUseCase {
  constructor(private readonly accounts: AccountRepository) {}

  async execute(now = new Date()): Promise<{ asOf: string; snapshots: number }> {
    const asOf = finalSnapshotBoundary(now);
    let after = { tenantId: '00000000-0000-0000-0000-000000000000', id: '00000000-0000-0000-0000-000000000000' };
    let snapshots = 0;
    for (let page = 0; page < SNAPSHOT_PAGES_PER_RUN_MAX; page++) {
      const keys = await this.accounts.accountKeysAfter(after, SNAPSHOT_PAGE_SIZE);
      if (keys.length === 0) break;
      snapshots += await this.accounts.takeSnapshots(asOf, keys);
      after = keys.at(-1)!;
    }
    return { asOf: asOf.toISOString(), snapshots };
  }
}
