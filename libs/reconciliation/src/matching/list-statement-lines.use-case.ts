import { Injectable } from '@nestjs/common';
import { decodeCursor, pageOf } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { StatementLineReader, type StatementLineListView, StatementSourceReader } from '@ledger/imports';
import { LineStatusRepository } from './line-status.repository';
import type { LineStatus } from './line-status.sql';

export interface ListedStatementLine extends StatementLineListView {
  /** A match (the reconciler's or a person's, not undone) holds the line. */
  matched: boolean;
}

// A cursor is the last line's booking day and id.
const CURSOR_PART = /^(?:\d{4}-\d{2}-\d{2}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

function decodeBefore(cursor: string): { bookedOn: string; id: string } {
  const parts = decodeCursor(cursor, CURSOR_PART);
  if (parts.length !== 2 || !/^\d{4}-/.test(parts[0]!) || /^\d{4}-/.test(parts[1]!)) {
    throw new DomainError('VALIDATION_FAILED', 'cursor is not one this list gave out', {
      fields: [{ path: 'cursor', message: 'invalid cursor' }],
    });
  }
  return { bookedOn: parts[0]!, id: parts[1]!.toLowerCase() };
}

/**
 * A source's statement lines, the latest booking day first, by whether a match holds them. Here rather
 * than in libs/imports: whether a line is matched is this lib's (`matches`), and imports knows nothing
 * of reconciliation.
 */
@Injectable()
export class ListStatementLinesUseCase {
  constructor(
    private readonly statuses: LineStatusRepository,
    private readonly sources: StatementSourceReader,
    private readonly lines: StatementLineReader,
  ) {}

  async execute(command: {
    tenantId: string;
    source: string;
    status?: LineStatus;
    cursor?: string;
    limit: number;
  }): Promise<{ data: ListedStatementLine[]; nextCursor: string | null }> {
    const source = await this.sources.findByName(command.tenantId, command.source);
    if (source === undefined) throw new DomainError('NOT_FOUND', `source ${command.source} not found`);
    const before = command.cursor === undefined ? undefined : decodeBefore(command.cursor);
    const rows = await this.statuses.page(
      command.tenantId,
      { sourceId: source.id, status: command.status, before },
      command.limit + 1,
    );
    const page = pageOf(rows, command.limit, (last) => [last.booked_on, last.id]);
    const matched = new Map(page.data.map((row) => [row.id, row.matched]));
    const views = await this.lines.viewsInOrder(command.tenantId, [...matched.keys()]);
    return { data: views.map((line) => ({ ...line, matched: matched.get(line.id)! })), nextCursor: page.nextCursor };
  }
}
