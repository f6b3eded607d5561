import { Injectable } from '@nestjs/common';
import { PAGE_SIZE_MAX } from '@ledger/ledger';
import { minorToDecimal } from '@ledger/money';
import { ListDiscrepanciesUseCase, ListRunsUseCase, type RunView, type TicketView } from '@ledger/reconciliation';
import { csvLine } from './csv-format';

export const RECONCILIATION_RECORDS = ['discrepancies', 'reconciliation-runs'] as const;
export type ReconciliationRecords = (typeof RECONCILIATION_RECORDS)[number];

const TICKET_HEADER = csvLine([
  'id',
  'kind',
  'severity',
  'status',
  'owner',
  'summary',
  'amount',
  'currency',
  'amount_minor',
  'account',
  'source',
  'opened_at',
  'updated_at',
  'due_at',
  'overdue',
  'resolved_at',
  'last_seen_run_id',
  'fingerprint',
  'evidence',
]);

const RUN_HEADER = csvLine(['id', 'trigger', 'status', 'started_at', 'finished_at', 'duration_ms', 'error', 'stats']);

function ticketRow(ticket: TicketView): string {
  const amount =
    ticket.amount !== null && ticket.currency !== null ? minorToDecimal(BigInt(ticket.amount), ticket.currency) : null;
  return csvLine([
    ticket.id,
    ticket.kind,
    ticket.severity,
    ticket.status,
    ticket.owner,
    ticket.summary,
    amount,
    ticket.currency,
    ticket.amount,
    ticket.accountCode,
    ticket.source,
    ticket.openedAt,
    ticket.updatedAt,
    ticket.dueAt,
    ticket.overdue,
    ticket.resolvedAt,
    ticket.lastSeenRunId,
    ticket.fingerprint,
    JSON.stringify(ticket.evidence),
  ]);
}

function runRow(run: RunView): string {
  return csvLine([
    run.id,
    run.trigger,
    run.status,
    run.startedAt,
    run.finishedAt,
    run.durationMs,
    run.error,
    JSON.stringify(run.stats),
  ]);
}

/**
 * Discrepancy tickets or reconciliation runs as CSV for the audit file, newest first, streamed page
 * by page through the same keyset-paged reads as the API's lists.
 */
@Injectable()
export class ExportReconciliationUseCase {
  constructor(
    private readonly tickets: ListDiscrepanciesUseCase,
    private readonly runs: ListRunsUseCase,
  ) {}

  execute(command: { tenantId: string; records: ReconciliationRecords }): {
    contentType: string;
    fileName: string;
    chunks: AsyncIterable<string>;
  } {
    const { tenantId } = command;
    const chunks =
      command.records === 'discrepancies'
        ? csvPages(TICKET_HEADER, ticketRow, (cursor) =>
            this.tickets.execute({ tenantId, cursor, limit: PAGE_SIZE_MAX }),
          )
        : csvPages(RUN_HEADER, runRow, (cursor) => this.runs.execute({ tenantId, cursor, limit: PAGE_SIZE_MAX }));
    return { contentType: 'text/csv; charset=utf-8', fileName: `${command.records}-${tenantId}.csv`, chunks };
  }
}

/** The header, then one chunk of rows per page of `readPage`, following its cursor to the end. */
async function* csvPages<T>(
  header: string,
  row: (item: T) => string,
  readPage: (cursor: string | undefined) => Promise<{ data: T[]; nextCursor: string | null }>,
): AsyncGenerator<string> {
  yield header;
  for (let cursor: string | undefined, more = true; more; ) {
    const page = await readPage(cursor);
    yield page.data.map(row).join('');
    cursor = page.nextCursor ?? undefined;
    more = page.nextCursor !== null;
  }
}
