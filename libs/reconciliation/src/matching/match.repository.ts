import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { newId } from '@ledger/ids';
import {
  ANY_LIVE_MEMBER,
  CONFIRM_MATCH,
  FIND_MATCH,
  INSERT_MANUAL_MATCH,
  LIST_MATCHES,
  LIST_MATCH_EVENTS,
  type MatchEventRow,
  type MemberRow,
  UNDO_MATCH,
} from './matches.sql';

/** The matches a person looks at and decides on (the rules' inserts are MatchingRepository's). */
@Injectable()
export class MatchRepository {
  constructor(private readonly db: Database) {}

  /** The members of every match of a line or of a transaction, match by match. */
  listMembers(tenantId: string, of: { statementLineId: string | null; transactionId: string | null }) {
    return this.db.query(LIST_MATCHES, { tenantId, ...of });
  }

  findMembers(tenantId: string, groupId: string): Promise<MemberRow[]> {
    return this.db.query(FIND_MATCH, { tenantId, groupId });
  }

  /**
   * One match of the rows given, each a line, an entry or both; answers how many rows were written (a
   * row whose line or entry is already matched is skipped).
   */
  async insertManual(
    tenantId: string,
    match: { groupId: string; actor: string; note: string | null },
    rows: { lineId: string | null; transactionId: string | null; leg: number | null }[],
  ): Promise<number> {
    const inserted = await this.db.query(INSERT_MANUAL_MATCH, {
      tenantId,
      ...match,
      eventId: newId(),
      lineIds: rows.map((row) => row.lineId),
      transactionIds: rows.map((row) => row.transactionId),
      legs: rows.map((row) => row.leg),
    });
    return inserted.length;
  }

  /** Whether the match was live (and, to confirm, not yet confirmed). */
  async decide(
    tenantId: string,
    action: 'confirm' | 'undo',
    decision: { groupId: string; actor: string; note: string | null },
  ): Promise<boolean> {
    const changed = await this.db.query(action === 'confirm' ? CONFIRM_MATCH : UNDO_MATCH, {
      tenantId,
      eventId: newId(),
      ...decision,
    });
    return changed.length > 0;
  }

  /** Whether a match that is not undone holds any of these lines or entries. */
  async anyLive(
    tenantId: string,
    lineIds: readonly string[],
    entries: readonly { transactionId: string; leg: number }[],
  ): Promise<boolean> {
    const [row] = await this.db.query(ANY_LIVE_MEMBER, {
      tenantId,
      lineIds: [...lineIds],
      transactionIds: entries.map((entry) => entry.transactionId),
      legs: entries.map((entry) => entry.leg),
    });
    return row!.live;
  }

  /** The events of these matches (made by hand, confirmed, undone, with their notes), oldest first. */
  events(tenantId: string, groupIds: readonly string[]): Promise<MatchEventRow[]> {
    if (groupIds.length === 0) return Promise.resolve([]);
    return this.db.query(LIST_MATCH_EVENTS, { tenantId, groupIds: [...new Set(groupIds)] });
  }
}
