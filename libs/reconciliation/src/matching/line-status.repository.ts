import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { LINES_BY_STATUS, type LineStatus, type LineStatusRow } from './line-status.sql';

/** Which statement lines a match holds: the ids of a page of a source's lines, with that answer. */
@Injectable()
export class LineStatusRepository {
  constructor(private readonly db: Database) {}

  /** The latest booking day first; `before` is the last line of the previous page. */
  page(
    tenantId: string,
    filter: { sourceId: string; status?: LineStatus; before?: { bookedOn: string; id: string } },
    limit: number,
  ): Promise<LineStatusRow[]> {
    return this.db.query(LINES_BY_STATUS[filter.status ?? 'any'], {
      tenantId,
      sourceId: filter.sourceId,
      beforeBookedOn: filter.before?.bookedOn ?? 'infinity',
      beforeId: filter.before?.id ?? 'ffffffff-ffff-ffff-ffff-ffffffffffff',
      limit,
    });
  }
}
