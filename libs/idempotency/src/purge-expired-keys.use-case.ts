import { Injectable } from '@nestjs/common';
import { IdempotencyRepository } from './idempotency.repository';

export const PURGE_BATCH_SIZE_MAX = 5_000;
export const PURGE_BATCHES_PER_RUN_MAX = 100;

/** Deletes expired keys in bounded batches, so one run never holds a long transaction. */
@Injectable()
export class PurgeExpiredKeysUseCase {
  constructor(private readonly keys: IdempotencyRepository) {}

  async execute(): Promise<{ deleted: number }> {
    let deleted = 0;
    for (let batch = 0; batch < PURGE_BATCHES_PER_RUN_MAX; batch++) {
      const count = await this.keys.deleteExpired(PURGE_BATCH_SIZE_MAX);
      deleted += count;
      if (count < PURGE_BATCH_SIZE_MAX) break;
    }
    return { deleted };
  }
}
