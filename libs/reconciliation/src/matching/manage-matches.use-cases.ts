import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { newId, isUuid } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import { StatementLineReader } from '@ledger/imports';
import { AccountReader, type EntrySummary } from '@ledger/ledger';
import { MatchRepository } from './match.repository';
import { type MatchView, MatchViews } from './match-views';

export type { MatchView } from './match-views';

export const MANUAL_MATCH_MEMBERS_MAX = 1_000;

function uuidOrNotFound(id: string, what: string): string {
  if (!isUuid(id)) throw new DomainError('NOT_FOUND', `${what} ${id} not found`);
  return id.toLowerCase();
}

function invalid(path: string, message: string, detail: string): DomainError {
  return new DomainError('VALIDATION_FAILED', message, { fields: [{ path, message: detail }] });
}

/** Each wanted entry as the one posted leg of its transaction on the account, or a clear refusal. */
function chosenEntries(wanted: { transaction: string; leg?: number }[], onAccount: EntrySummary[]): EntrySummary[] {
  const entries = wanted.map((entry, index) => {
    const legs = onAccount.filter(
      (row) => row.transactionId === entry.transaction && (entry.leg === undefined || row.leg === entry.leg),
    );
    if (legs.length === 0) {
      const leg = entry.leg === undefined ? '' : ` with leg ${entry.leg}`;
      throw new DomainError(
        'NOT_FOUND',
        `transaction ${entry.transaction} has no posted entry${leg} on the account the statement lines belong to`,
      );
    }
    if (legs.length > 1)
      throw invalid(
        `entries.${index}.leg`,
        `transaction ${entry.transaction} has several entries on that account: name the leg`,
        'required',
      );
    return legs[0]!;
  });
  if (new Set(entries.map((entry) => `${entry.transactionId}:${entry.leg}`)).size !== entries.length)
    throw invalid('entries', 'an entry is named twice', 'duplicate');
  return entries;
}

/** Explains, makes, confirms and undoes matches; the next run updates the tickets accordingly. */
@Injectable()
export class ManageMatchesUseCase {
  constructor(
    private readonly db: Database,
    private readonly matches: MatchRepository,
    private readonly views: MatchViews,
    private readonly lines: StatementLineReader,
    private readonly accounts: AccountReader,
  ) {}

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
    const rows = await this.matches.listMembers(command.tenantId, {
      statementLineId: line,
      transactionId: transaction,
    });
    return { data: await this.views.of(command.tenantId, rows), nextCursor: null };
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
    return this.db.transaction('read committed', async () => {
      const lines = await this.lines.withAccounts(command.tenantId, lineIds);
      const missing = lineIds.find((id) => !lines.some((line) => line.id === id));
      if (missing !== undefined) throw new DomainError('NOT_FOUND', `statement line ${missing} not found`);
      const accounts = new Set(lines.map((line) => line.accountId));
      if (accounts.size > 1)
        throw invalid(
          'statementLines',
          'the statement lines belong to sources of different accounts',
          'one account per match',
        );
      const onAccount = await this.accounts.postedEntriesOn(
        command.tenantId,
        lines[0]!.accountId,
        wanted.map((entry) => entry.transaction),
      );
      const entries = chosenEntries(wanted, onAccount);
      const id = newId();
      const rows = Array.from({ length: Math.max(lineIds.length, entries.length) }, (_, index) => ({
        lineId: lineIds[index] ?? null,
        transactionId: entries[index]?.transactionId ?? null,
        leg: entries[index]?.leg ?? null,
      }));
      const note = command.note ?? null;
      const inserted = await this.matches.insertManual(
        command.tenantId,
        { groupId: id, actor: command.actor, note },
        rows,
      );
      if (inserted !== rows.length)
        throw invalid(
          'statementLines',
          'a line or an entry is already matched: undo that match first',
          'already matched',
        );
      return (await this.views.of(command.tenantId, await this.matches.findMembers(command.tenantId, id)))[0]!;
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
    return this.db.transaction('read committed', async () => {
      const existing = await this.matches.findMembers(command.tenantId, id);
      if (existing.length === 0) throw new DomainError('NOT_FOUND', `match ${command.id} not found`);
      const decision = { groupId: id, actor: command.actor, note: command.note ?? null };
      if (!(await this.matches.decide(command.tenantId, command.action, decision))) {
        const done = command.action === 'confirm' ? 'confirmed' : 'undone';
        throw new DomainError(
          'VALIDATION_FAILED',
          `this match cannot be ${done} (already ${existing[0]!.undone_at ? 'undone' : 'confirmed'})`,
        );
      }
      return (await this.views.of(command.tenantId, await this.matches.findMembers(command.tenantId, id)))[0]!;
    });
  }
}
