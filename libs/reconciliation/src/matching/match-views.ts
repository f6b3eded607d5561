import { Injectable } from '@nestjs/common';
import { StatementLineReader } from '@ledger/imports';
import { AccountReader } from '@ledger/ledger';
import { MatchRepository } from './match.repository';
import type { MemberRow } from './matches.sql';

/** One thing a person did to a match, with what they said. */
export interface MatchEventView {
  at: string;
  actor: string;
  action: 'created' | 'confirmed' | 'undone';
  note: string | null;
}

/** A match and why it was made: its rule, the evidence, and every line and entry it joins. */
export interface MatchView {
  id: string;
  rule: string;
  evidence: Record<string, unknown>;
  statementLines: { id: string; amount: string; currency: string; bookedOn: string }[];
  entries: { transactionId: string; leg: number; direction: string; amount: string; currency: string }[];
  runId: string | null;
  createdBy: string;
  createdAt: string;
  confirmedBy: string | null;
  confirmedAt: string | null;
  undoneBy: string | null;
  undoneAt: string | null;
  /** The latest note given; every note is kept in `history`. */
  note: string | null;
  /** Made by hand, confirmed, undone: who, when and the note, oldest first (appended, never overwritten). */
  history: MatchEventView[];
}

function emptyView(row: MemberRow): MatchView {
  return {
    id: row.group_id,
    rule: row.rule,
    evidence: row.evidence,
    statementLines: [],
    entries: [],
    runId: row.run_id,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    confirmedBy: row.confirmed_by,
    confirmedAt: row.confirmed_at?.toISOString() ?? null,
    undoneBy: row.undone_by,
    undoneAt: row.undone_at?.toISOString() ?? null,
    note: null,
    history: [],
  };
}

/**
 * The member rows of one or more matches, in order, as one view per match, with each line's and entry's
 * amounts read from their owners (imports' lines, the ledger's entries), which foreign keys keep present.
 */
@Injectable()
export class MatchViews {
  constructor(
    private readonly lines: StatementLineReader,
    private readonly accounts: AccountReader,
    private readonly matches: MatchRepository,
  ) {}

  async of(tenantId: string, rows: readonly MemberRow[]): Promise<MatchView[]> {
    const lineIds = rows.flatMap((row) => (row.statement_line_id === null ? [] : [row.statement_line_id]));
    const transactionIds = rows.flatMap((row) => (row.transaction_id === null ? [] : [row.transaction_id]));
    const lines = await this.lines.findByIds(tenantId, lineIds);
    const entries = await this.accounts.entriesOf(tenantId, transactionIds);
    const views = new Map<string, MatchView>();
    for (const row of rows) {
      let view = views.get(row.group_id);
      if (view === undefined) {
        view = emptyView(row);
        views.set(row.group_id, view);
      }
      if (row.statement_line_id !== null) {
        const line = lines.get(row.statement_line_id)!;
        view.statementLines.push({
          id: line.id,
          amount: line.amountMinor.toString(),
          currency: line.currency,
          bookedOn: line.bookedOn,
        });
      }
      if (row.transaction_id !== null) {
        const entry = entries.get(`${row.transaction_id}:${row.leg}`)!;
        view.entries.push({
          transactionId: entry.transactionId,
          leg: entry.leg,
          direction: entry.direction,
          amount: entry.amountMinor.toString(),
          currency: entry.currency,
        });
      }
    }
    for (const event of await this.matches.events(tenantId, [...views.keys()])) {
      const view = views.get(event.group_id)!;
      view.history.push({ at: event.at.toISOString(), actor: event.actor, action: event.action, note: event.note });
      if (event.note !== null) view.note = event.note;
    }
    return [...views.values()];
  }
}
