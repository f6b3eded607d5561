import { Injectable } from '@nestjs/common';
import { decodeIdCursor, pageOf } from '@ledger/db';
import { ApiKeyRepository, type ApiKeyView } from './api-key.repository';

/** The tenant's keys, revoked and expired ones included, newest first. */
@Injectable()
export class ListApiKeysUseCase {
  constructor(private readonly keys: ApiKeyRepository) {}

  async execute(query: {
    tenantId: string;
    cursor?: string;
    limit: number;
  }): Promise<{ data: ApiKeyView[]; nextCursor: string | null }> {
    const beforeId = query.cursor === undefined ? undefined : decodeIdCursor(query.cursor);
    const rows = await this.keys.list(query.tenantId, beforeId, query.limit + 1);
    return pageOf(rows, query.limit, (last) => [last.id]);
  }
}
