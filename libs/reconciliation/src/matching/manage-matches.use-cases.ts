import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { newId, isUuid } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import {
  CONFIRM_MATCH,
  ENTRIES_ON_ACCOUNT,
  FIND_MATCH,
  INSERT_MANUAL_MATCH,
  LINES_WITH_ACCOUNT,
  LIST_MATCHES,
  UNDO_MATCH,
} from './matches.sql';

interface MemberRow {
  group_id: string;
  statement_line_id: string | null;
  transaction_id: string | null;
  leg: number | null;
  rule: string;
  evidence: Record<string, unknown>;
  run_id: string | null;
  created_by: string;
  created_at: Date;
  confirmed_by: string | null;
  confirmed_at: Date | null;
  undone_by: string | null;
  undone_at: Date | null;
  note: string | null;
  line_amount: string | null;
  line_currency: string | null;
  booked_on: string | null;
  entry_amount: string | null;
  entry_direction: string | null;
  entry_currency: string | null;
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
  note: string | null;
}

export const MANUAL_MATCH_MEMBERS_MAX = 1_000;

/** The member rows of one or more matches, in order, as one view per match. */
function toViews(rows: MemberRow[]): MatchView[] {
  const views = new Map<string, MatchView>();
  for (const row of rows) {
    let view = views.get(row.group_id);
    if (view === undefined) {
      view = {
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
        note: row.note,
      };
      views.set(row.group_id, view);
    }
    if (row.statement_line_id !== null)
      view.statementLines.push({
        id: row.statement_line_id,
        amount: row.line_amount!,
        currency: row.line_currency!,
        bookedOn: row.booked_on!,
      });
    if (row.transaction_id !== null) {
      view.entries.push({
        transactionId: row.transaction_id,
        leg: row.leg!,
        direction: row.entry_direction!,
        amount: row.entry_amount!,
        currency: row.entry_currency!,
      });
    }
  }
  return [...views.values()];
}

function uuidOrNotFound(id: string, what: string): string {
  if (!isUuid(id)) throw new DomainError('NOT_FOUND', `${what} ${id} not found`);
  return id.toLowerCase();
}

function invalid(path: string, message: string, detail: string): DomainError {
  return new DomainError('VALIDATION_FAILED', message, { fields: [{ path, message: detail }] });
}

/** Explains, makes, confirms and undoes matches; the next run updates the tickets accordingly. */
@Injectable()
export class ManageMatchesUseCase {
  constructor(private readonly db: Database) {}

  async list(command: {
    tenantId: string;
    statementLine?: string;
    transaction?: string;
  }): Promise<{ data: MatchView[]; nextCursor: null }> {
    if (command.statementLine === undefined && command.transaction === undefined) {
      throw invalid('statementLine', 'name a statementLine or a transaction', 'required without transaction');
    }
    const line = command.statementLine === undefined ? null : uuidOrNotFound(command.statementLine, 'statement line');
    const transaction = command.transaction === undefined ? null : uuidOrNotFound(command.transaction, 'transaction');
    return {
      data: toViews(await this.db.executor.query<MemberRow>(LIST_MATCHES, [command.tenantId, line, transaction])),
      nextCursor: null,
    };
  }

  /**
   * A person matches statement lines to ledger entries: one to one, or a group (a deposit to the
   * several postings it settles). Every line's source and every entry must be on the same account.
   */
  async matchByHand(command: {
    tenantId: string;
    actor: string;
    statementLines: string[];
    entries: { transaction: string; leg?: number }[];
    note?: string;
  }): Promise<MatchView> {
    const lineIds = [...new Set(command.statementLines.map((id) => uuidOrNotFound(id, 'statement line')))];
    const wanted = command.entries.map((entry) => ({
      transaction: uuidOrNotFound(entry.transaction, 'transaction'),
      leg: entry.leg,
    }));
    return this.db.transaction('read committed', async (tx) => {
      const lines = await tx.query<{ line_id: string; account_id: string }>(LINES_WITH_ACCOUNT, [
        command.tenantId,
        lineIds,
      ]);
      const missing = lineIds.find((id) => !lines.some((line) => line.line_id === id));
      if (missing !== undefined) throw new DomainError('NOT_FOUND', `statement line ${missing} not found`);
      const accounts = new Set(lines.map((line) => line.account_id));
      if (accounts.size > 1)
        throw invalid(
          'statementLines',
          'the statement lines belong to sources of different accounts',
          'one account per match',
        );
      const accountId = lines[0]!.account_id;
      const onAccount = await tx.query<{ transaction_id: string; leg: number }>(ENTRIES_ON_ACCOUNT, [
        command.tenantId,
        accountId,
        wanted.map((entry) => entry.transaction),
      ]);
      const entries = wanted.map((entry, index) => {
        const legs = onAccount.filter(
          (row) => row.transaction_id === entry.transaction && (entry.leg === undefined || row.leg === entry.leg),
        );
        if (legs.length === 0)
          throw new DomainError(
            'NOT_FOUND',
            `transaction ${entry.transaction} has no posted entry${entry.leg === undefined ? '' : ` with leg ${entry.leg}`} on the account the statement lines belong to`,
          );
        if (legs.length > 1)
          throw invalid(
            `entries.${index}.leg`,
            `transaction ${entry.transaction} has several entries on that account: name the leg`,
            'required',
          );
        return legs[0]!;
      });
      if (new Set(entries.map((entry) => `${entry.transaction_id}:${entry.leg}`)).size !== entries.length)
        throw invalid('entries', 'an entry is named twice', 'duplicate');
      const id = newId();
      const rows = Math.max(lineIds.length, entries.length);
      const inserted = await tx.query(INSERT_MANUAL_MATCH, [
        command.tenantId,
        id,
        command.actor,
        command.note ?? null,
        Array.from({ length: rows }, (_, index) => lineIds[index] ?? null),
        Array.from({ length: rows }, (_, index) => entries[index]?.transaction_id ?? null),
        Array.from({ length: rows }, (_, index) => entries[index]?.leg ?? null),
      ]);
      if (inserted.length !== rows)
        throw invalid(
          'statementLines',
          'a line or an entry is already matched: undo that match first',
          'already matched',
        );
      return toViews(await tx.query<MemberRow>(FIND_MATCH, [command.tenantId, id]))[0]!;
    });
  }

  async decide(command: {
    tenantId: string;
    actor: string;
    id: string;
    action: 'confirm' | 'undo';
    note?: string;
  }): Promise<MatchView> {
    const id = uuidOrNotFound(command.id, 'match');
    return this.db.transaction('read committed', async (tx) => {
      const existing = toViews(await tx.query<MemberRow>(FIND_MATCH, [command.tenantId, id]))[0];
      if (existing === undefined) throw new DomainError('NOT_FOUND', `match ${command.id} not found`);
      const changed = await tx.query(command.action === 'confirm' ? CONFIRM_MATCH : UNDO_MATCH, [
        command.tenantId,
        id,
        command.actor,
        command.note ?? null,
      ]);
      if (changed.length === 0)
        throw new DomainError(
          'VALIDATION_FAILED',
          `this match cannot be ${command.action === 'confirm' ? 'confirmed' : 'undone'} (already ${existing.undoneAt ? 'undone' : 'confirmed'})`,
        );
      return toViews(await tx.query<MemberRow>(FIND_MATCH, [command.tenantId, id]))[0]!;
    });
  }
}
