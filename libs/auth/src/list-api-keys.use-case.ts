import { Injectable } from '@nestjs/common';
import { decodeIdCursor, encodeCursor } from '@ledger/db';
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
    const page = rows.slice(0, query.limit);
    return { data: page, nextCursor: rows.length > query.limit ? encodeCursor([page.at(-1)!.id]) : null };
  }
}
