import { Injectable } from '@nestjs/common';
import { Database, newId, isUuid } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { CONFIRM_MATCH, FIND_MATCH, INSERT_MANUAL_MATCH, LIST_MATCHES, MANUAL_PAIR, UNDO_MATCH } from './matches.sql';

interface MatchRow {
  id: string;
  statement_line_id: string;
  transaction_id: string;
  leg: number;
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
  line_amount: string;
  line_currency: string;
  booked_on: string;
  entry_amount: string;
  entry_direction: string;
  entry_currency: string;
}

/** A match and why it was made: its rule, the evidence, and both sides. */
export interface MatchView {
  id: string;
  rule: string;
  evidence: Record<string, unknown>;
  statementLine: { id: string; amount: string; currency: string; bookedOn: string };
  entry: { transactionId: string; leg: number; direction: string; amount: string; currency: string };
  runId: string | null;
  createdBy: string;
  createdAt: string;
  confirmedBy: string | null;
  confirmedAt: string | null;
  undoneBy: string | null;
  undoneAt: string | null;
  note: string | null;
}

function toView(row: MatchRow): MatchView {
  return {
    id: row.id,
    rule: row.rule,
    evidence: row.evidence,
    statementLine: { id: row.statement_line_id, amount: row.line_amount, currency: row.line_currency, bookedOn: row.booked_on },
    entry: { transactionId: row.transaction_id, leg: row.leg, direction: row.entry_direction, amount: row.entry_amount, currency: row.entry_currency },
    runId: row.run_id,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    confirmedBy: row.confirmed_by,
    confirmedAt: row.confirmed_at?.toISOString() ?? null,
    undoneBy: row.undone_by,
    undoneAt: row.undone_at?.toISOString() ?? null,
    note: row.note,
  };
}

function uuidOrNotFound(id: string, what: string): string {
  if (!isUuid(id)) throw new DomainError('NOT_FOUND', `${what} ${id} not found`);
  return id.toLowerCase();
}

/** Explains, makes, confirms and undoes matches; the next run updates the tickets accordingly. */
@Injectable()
export class ManageMatchesUseCase {
  constructor(private readonly db: Database) {}

  async list(command: { tenantId: string; statementLine?: string; transaction?: string }): Promise<{ data: MatchView[]; nextCursor: null }> {
    if (command.statementLine === undefined && command.transaction === undefined) {
      throw new DomainError('VALIDATION_FAILED', 'name a statementLine or a transaction', { fields: [{ path: 'statementLine', message: 'required without transaction' }] });
    }
    const line = command.statementLine === undefined ? null : uuidOrNotFound(command.statementLine, 'statement line');
    const transaction = command.transaction === undefined ? null : uuidOrNotFound(command.transaction, 'transaction');
    const rows = await this.db.executor.query<MatchRow>(LIST_MATCHES, [command.tenantId, line, transaction]);
    return { data: rows.map(toView), nextCursor: null };
  }

  async matchByHand(command: { tenantId: string; actor: string; statementLine: string; transaction: string; leg?: number; note?: string }): Promise<MatchView> {
    const line = uuidOrNotFound(command.statementLine, 'statement line');
    const transaction = uuidOrNotFound(command.transaction, 'transaction');
    return this.db.transaction('read committed', async (tx) => {
      const pairs = await tx.query<{ line_id: string; transaction_id: string; leg: number }>(MANUAL_PAIR, [command.tenantId, line, transaction, command.leg ?? null]);
      if (pairs.length === 0) throw new DomainError('NOT_FOUND', 'no entry of that transaction is on the account the statement line belongs to');
      if (pairs.length > 1) throw new DomainError('VALIDATION_FAILED', 'the transaction has several entries on that account: name the leg', { fields: [{ path: 'leg', message: 'required' }] });
      const id = newId();
      const inserted = await tx.query(INSERT_MANUAL_MATCH, [command.tenantId, id, line, pairs[0]!.transaction_id, pairs[0]!.leg, command.actor, command.note ?? null]);
      if (inserted.length === 0) throw new DomainError('VALIDATION_FAILED', 'the line or the entry is already matched: undo that match first', { fields: [{ path: 'statementLine', message: 'already matched' }] });
      return toView((await tx.query<MatchRow>(FIND_MATCH, [command.tenantId, id]))[0]!);
    });
  }

  async decide(command: { tenantId: string; actor: string; id: string; action: 'confirm' | 'undo'; note?: string }): Promise<MatchView> {
    const id = uuidOrNotFound(command.id, 'match');
    return this.db.transaction('read committed', async (tx) => {
      const existing = (await tx.query<MatchRow>(FIND_MATCH, [command.tenantId, id]))[0];
      if (existing === undefined) throw new DomainError('NOT_FOUND', `match ${command.id} not found`);
      const changed = await tx.query(command.action === 'confirm' ? CONFIRM_MATCH : UNDO_MATCH, [command.tenantId, id, command.actor, command.note ?? null]);
      if (changed.length === 0) throw new DomainError('VALIDATION_FAILED', `this match cannot be ${command.action === 'confirm' ? 'confirmed' : 'undone'} (already ${existing.undone_at ? 'undone' : 'confirmed'})`);
      return toView((await tx.query<MatchRow>(FIND_MATCH, [command.tenantId, id]))[0]!);
    });
  }
}
