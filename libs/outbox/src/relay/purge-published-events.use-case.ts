import type { WebhookRepository } from '../webhooks/webhook.repository';
import { RelayRepository } from './relay.repository';

/** Rows deleted per statement, and statements per run: a big backlog is cleared over several runs. */
export const PURGE_CHUNK_ROWS_MAX = 5_000;
export const PURGE_CHUNKS_PER_RUN_MAX = 100;

async function deleteInChunks(deleteChunk: (limit: number) => Promise<number>): Promise<number> {
  let deleted = 0;
  for (let chunk = 0; chunk < PURGE_CHUNKS_PER_RUN_MAX; chunk++) {
    const count = await deleteChunk(PURGE_CHUNK_ROWS_MAX);
    deleted += count;
    if (count < PURGE_CHUNK_ROWS_MAX) break;
  }
  return deleted;
}

/**
 * Deletes events published (and their webhooks queued), and webhook deliveries delivered, longer ago
 * than the retention period.
 * Until then events stay readable in the pull feed (`GET /v1/events`), so a consumer that was away
 * for less than the retention catches up. Dead letters stay until they are redelivered.
 */
export class PurgePublishedEventsUseCase {
  constructor(
    private readonly outbox: RelayRepository,
    private readonly webhooks: WebhookRepository,
    private readonly retentionHours: number,
  ) {}

  async execute(now: Date = new Date()): Promise<{ events: number; deliveries: number }> {
    const before = new Date(now.getTime() - this.retentionHours * 3_600_000);
    return {
      events: await deleteInChunks((limit) => this.outbox.deletePublishedBefore(before, limit)),
      deliveries: await deleteInChunks((limit) => this.webhooks.deleteDeliveredBefore(before, limit)),
    };
  }
}
