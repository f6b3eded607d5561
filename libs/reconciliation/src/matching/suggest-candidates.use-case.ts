import { Injectable } from '@nestjs/common';
import { DomainError } from '@ledger/errors';
import { StatementSourceReader } from '@ledger/imports';
import { isUuid } from '@ledger/ids';
import { TicketRepository } from '../tickets/ticket.repository';
import { type CandidateView, candidateView } from './candidate-reasons';
import { GROUP_EVIDENCE_MEMBERS_MAX } from './match-findings';
import { MatchingRepository } from './matching.repository';

/** Suggestions answered when the request names no limit, and at most. */
export const CANDIDATES_DEFAULT = 10;
export const CANDIDATES_MAX = 50;
/** An entry effective up to this many days before or after the lines' booking dates is near. */
export const CANDIDATE_WINDOW_DAYS = 7;
/** An entry within this share of the lines' total (in basis points: 20%) is near in amount. */
export const CANDIDATE_AMOUNT_BAND_BPS = 2_000;
/** Entries in the window kept, and entries read at most, on either side of the lines' total (the bound). */
export const CANDIDATE_NEARBY_MAX = 200;
export const CANDIDATE_SCAN_MAX = 2_000;

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** The statement lines a ticket is about (one, or a group's); a twin already matched is not one of them. */
function ticketLines(evidence: Record<string, unknown>): string[] {
  const ids = [...strings(evidence.statementLineId), ...strings(evidence.statementLineIds)].filter(isUuid);
  return [...new Set(ids.map((id) => id.toLowerCase()))].slice(0, GROUP_EVIDENCE_MEMBERS_MAX);
}

/**
 * The ledger transactions most likely to explain a ticket's statement lines: unmatched posted entries
 * on the source's account near the lines' total and dates, or named by their reference, best first. A
 * ticket about a ledger entry (`missing_in_statement`) or about no line at all has none.
 */
@Injectable()
export class SuggestCandidatesUseCase {
  constructor(
    private readonly tickets: TicketRepository,
    private readonly sources: StatementSourceReader,
    private readonly matching: MatchingRepository,
  ) {}

  async execute(command: { tenantId: string; id: string; limit: number }): Promise<{ data: CandidateView[] }> {
    const ticket = isUuid(command.id) ? await this.tickets.find(command.tenantId, command.id.toLowerCase()) : undefined;
    if (ticket === undefined) throw new DomainError('NOT_FOUND', `discrepancy ${command.id} not found`);
    const lineIds = ticketLines(ticket.evidence);
    if (lineIds.length === 0 || ticket.source === null) return { data: [] };
    const source = await this.sources.findByName(command.tenantId, ticket.source);
    if (source === undefined) return { data: [] };
    const rows = await this.matching.suggestTransactions({
      tenantId: command.tenantId,
      sourceId: source.id,
      accountId: source.account.id,
      normalBalance: source.account.normalBalance,
      lineIds,
      windowDays: CANDIDATE_WINDOW_DAYS,
      bandBps: CANDIDATE_AMOUNT_BAND_BPS,
      nearbyMax: CANDIDATE_NEARBY_MAX,
      scanMax: CANDIDATE_SCAN_MAX,
      limit: command.limit,
    });
    return { data: rows.map((row) => candidateView(row, CANDIDATE_WINDOW_DAYS)) };
  }
}
