import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';

/** Runs by status, and tickets still open (or acknowledged) by kind, across tenants. */
const RECONCILIATION_STATISTICS = `
SELECT 'run' AS measure, status AS label, count(*)::int8 AS count FROM reconciliation_runs GROUP BY status
UNION ALL
SELECT 'open_ticket', kind, count(*)::int8 FROM discrepancies WHERE status IN ('open', 'acknowledged') GROUP BY kind`;

export interface ReconciliationStatistics {
  runs: Record<string, number>;
  openTickets: Record<string, number>;
}

/** Reconciliation outcomes for the metrics endpoint; read from the tables, so every process agrees. */
@Injectable()
export class ReconciliationStatisticsUseCase {
  constructor(private readonly db: Database) {}

  async execute(): Promise<ReconciliationStatistics> {
    const rows = await this.db.executor.query<{ measure: 'run' | 'open_ticket'; label: string; count: bigint }>(
      RECONCILIATION_STATISTICS,
    );
    const result: ReconciliationStatistics = { runs: {}, openTickets: {} };
    for (const row of rows) (row.measure === 'run' ? result.runs : result.openTickets)[row.label] = Number(row.count);
    return result;
  }
}
