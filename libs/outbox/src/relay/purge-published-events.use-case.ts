import { RelayRepository } from './relay.repository';

/** Rows deleted per statement, and statements per run: a big backlog is cleared over several runs. */
export const PURGE_CHUNK_ROWS_MAX = 5_000;
export const PURGE_CHUNKS_PER_RUN_MAX = 100;

/**
 * Deletes events published longer ago than the retention period. Until then they stay readable in
 * the pull feed (`GET /v1/events`), so a consumer that was away for less than the retention catches up.
 */
export class PurgePublishedEventsUseCase {
  constructor(
    private readonly outbox: RelayRepository,
    private readonly retentionHours: number,
  ) {}

  async execute(now: Date = new Date()): Promise<{ deleted: number }> {
    const before = new Date(now.getTime() - this.retentionHours * 3_600_000);
    let deleted = 0;
    for (let chunk = 0; chunk < PURGE_CHUNKS_PER_RUN_MAX; chunk++) {
      const count = await this.outbox.deletePublishedBefore(before, PURGE_CHUNK_ROWS_MAX);
      deleted += count;
      if (count < PURGE_CHUNK_ROWS_MAX) break;
    }
    return { deleted };
  }
}
