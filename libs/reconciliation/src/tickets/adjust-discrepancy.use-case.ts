import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { isUuid } from '@ledger/ids';
import { type LineSummary, StatementLineReader } from '@ledger/imports';
import {
  AccountReader,
  type AccountSummary,
  BACKDATE_WINDOW_MS,
  DESCRIPTION_LENGTH_MAX,
  EXTERNAL_REF_LENGTH_MAX,
  type EntrySummary,
  PostTransactionUseCase,
  type TransactionView,
} from '@ledger/ledger';
import { formatMoney } from '@ledger/money';
import { OutboxRepository } from '@ledger/outbox';
import {
  type AdjustmentScope,
  adjustmentLegs,
  adjustmentScope,
  bookingReference,
  isNotAdjustable,
  signedEntry,
} from '../domain/adjustment';
import { ManageMatchesUseCase } from '../matching/manage-matches.use-cases';
import { MatchRepository } from '../matching/match.repository';
import { TicketRepository } from './ticket.repository';
import { type Ticket, type TicketEventView, type TicketView, ticketView } from './ticket.views';

export interface AdjustDiscrepancyCommand {
  tenantId: string;
  id: string;
  /** Who books it: the API key's id; recorded on the transaction, the match and the ticket's history. */
  actor: string;
  /** The account (code or id) that takes the other side of the booking: an expense, an income. */
  counterAccount: string;
  description?: string;
  /** Default: the (latest) line's booking day when the ledger accepts that date, otherwise now. */
  effectiveAt?: Date;
}

export interface AdjustmentResult {
  transaction: TransactionView;
  ticket: TicketView & { history: TicketEventView[] };
}

/** What is booked: the ticket's lines, the ledger side they already have, and the difference. */
interface Booking {
  lines: (LineSummary & { accountId: string })[];
  source: AccountSummary;
  entries: EntrySummary[];
  currency: string;
  /** Statement minus ledger, signed as the statement signs it (money in positive). */
  differenceMinor: bigint;
}

/** A booking's date is cut a minute inside the ledger's back-date window, so that it is still in it at posting. */
const BACKDATE_MARGIN_MS = 60_000;

function notAdjustable(ticket: Ticket, reason: string): DomainError {
  return new DomainError('NOT_ADJUSTABLE', `discrepancy ${ticket.id} cannot be fixed by booking: ${reason}`, {
    kind: ticket.kind,
    status: ticket.status,
  });
}

function defaultEffectiveAt(lines: readonly LineSummary[], now: Date): Date {
  const latest = Math.max(...lines.map((line) => Date.parse(`${line.bookedOn}T00:00:00Z`)));
  const inWindow = latest <= now.getTime() && latest > now.getTime() - BACKDATE_WINDOW_MS + BACKDATE_MARGIN_MS;
  return inWindow ? new Date(latest) : now;
}

/**
 * Fixes a ticket from the ticket: books its statement line(s), or the part of them the ledger lacks,
 * against a counter account through the ledger's posting, matches the lines with the ledger side and
 * the new entry by hand, and resolves the ticket naming the transaction; one database transaction.
 */
@Injectable()
export class AdjustDiscrepancyUseCase {
  constructor(
    private readonly db: Database,
    private readonly tickets: TicketRepository,
    private readonly matches: MatchRepository,
    private readonly manualMatches: ManageMatchesUseCase,
    private readonly lines: StatementLineReader,
    private readonly accounts: AccountReader,
    private readonly posting: PostTransactionUseCase,
    private readonly outbox: OutboxRepository,
  ) {}

  async execute(command: AdjustDiscrepancyCommand): Promise<AdjustmentResult> {
    if (!isUuid(command.id)) throw new DomainError('NOT_FOUND', `discrepancy ${command.id} not found`);
    const { tenantId } = command;
    return this.db.transaction('read committed', async () => {
      const ticket = await this.tickets.lock(tenantId, command.id.toLowerCase());
      if (ticket === undefined) throw new DomainError('NOT_FOUND', `discrepancy ${command.id} not found`);
      if (ticket.status !== 'open' && ticket.status !== 'acknowledged')
        throw notAdjustable(ticket, `it is ${ticket.status}`);
      const scope = adjustmentScope(ticket);
      if (isNotAdjustable(scope)) throw notAdjustable(ticket, scope.reason);
      const booking = await this.booking(tenantId, ticket, scope);
      const counter = await this.counterAccount(tenantId, command.counterAccount, booking);
      const transaction = await this.post(command, ticket, booking, counter);
      const sourceLeg = transaction.entries.find((entry) => entry.accountId === booking.source.id)!.leg;
      const match = await this.manualMatches.matchByHand({
        tenantId,
        actor: command.actor,
        statementLines: booking.lines.map((line) => line.id),
        entries: [
          ...booking.entries.map((entry) => ({ transaction: entry.transactionId, leg: entry.leg })),
          { transaction: transaction.id, leg: sourceLeg },
        ],
        note: `booked from discrepancy ${ticket.id} as transaction ${transaction.id}`,
      });
      const note =
        `Booked ${formatMoney(booking.differenceMinor, booking.currency)} against ${counter.code} ` +
        `as transaction ${transaction.id}${command.description ? `: ${command.description}` : ''}`;
      const resolved = await this.resolve(tenantId, command.actor, ticket, note, {
        transactionId: transaction.id,
        matchId: match.id,
        counterAccount: counter.code,
      });
      return {
        transaction,
        ticket: { ...ticketView(resolved), history: await this.tickets.history(tenantId, ticket.id) },
      };
    });
  }

  /** The ticket's lines and ledger side as they are now; refused when they no longer leave anything to book. */
  private async booking(tenantId: string, ticket: Ticket, scope: AdjustmentScope): Promise<Booking> {
    const lines = await this.lines.withAccounts(tenantId, scope.statementLineIds);
    const accountIds = new Set(lines.map((line) => line.accountId));
    const currencies = new Set(lines.map((line) => line.currency));
    if (lines.length !== new Set(scope.statementLineIds).size || accountIds.size !== 1 || currencies.size !== 1)
      throw notAdjustable(ticket, 'its lines are not those of one source in one currency');
    const [accountId] = accountIds as Set<string>;
    const [currency] = currencies as Set<string>;
    const source = (await this.accounts.findByIds(tenantId, [accountId!])).get(accountId!)!;
    const onAccount = await this.accounts.postedEntriesOn(
      tenantId,
      source.id,
      scope.entries.map((entry) => entry.transactionId),
    );
    const entries = scope.entries.map((wanted) => {
      const candidates = onAccount.filter(
        (entry) =>
          entry.transactionId === wanted.transactionId &&
          (wanted.leg === undefined || entry.leg === wanted.leg) &&
          (wanted.signedAmountMinor === undefined ||
            signedEntry(source.normalBalance, entry) === wanted.signedAmountMinor),
      );
      if (candidates.length !== 1)
        throw notAdjustable(ticket, `its ledger side (${wanted.transactionId}) is not one entry on ${source.code}`);
      return candidates[0]!;
    });
    if (entries.some((entry) => entry.currency !== currency))
      throw notAdjustable(ticket, 'its ledger side is in another currency');
    const differenceMinor =
      lines.reduce((sum, line) => sum + line.amountMinor, 0n) -
      entries.reduce((sum, entry) => sum + signedEntry(source.normalBalance, entry), 0n);
    if (differenceMinor === 0n) throw notAdjustable(ticket, 'the statement and the ledger agree: nothing to book');
    if (await this.matches.anyLive(tenantId, scope.statementLineIds, entries))
      throw notAdjustable(ticket, 'a line or entry of it was matched since the run found it');
    return { lines, source, entries, currency: currency!, differenceMinor };
  }

  /** The counter account: of the tenant, not the source's own, in the lines' currency. */
  private async counterAccount(tenantId: string, ref: string, booking: Booking): Promise<AccountSummary> {
    const invalid = (message: string) =>
      new DomainError('VALIDATION_FAILED', `counterAccount ${message}`, {
        fields: [{ path: 'counterAccount', message }],
      });
    const counter = await this.accounts.findByRef(tenantId, ref);
    if (counter === undefined) throw invalid(`names no account: ${ref}`);
    if (counter.id === booking.source.id) throw invalid('is the account the statement lines belong to');
    if (counter.currency !== booking.currency) {
      throw new DomainError(
        'CURRENCY_MISMATCH',
        `account ${counter.code} holds ${counter.currency}, not ${booking.currency}`,
        {
          fields: [{ path: 'counterAccount', message: `must hold ${booking.currency}` }],
          account: counter.code,
          accountCurrency: counter.currency,
          entryCurrency: booking.currency,
        },
      );
    }
    return counter;
  }

  /** Through the ledger's posting, with all its checks; the line's reference becomes the externalRef. */
  private async post(
    command: AdjustDiscrepancyCommand,
    ticket: Ticket,
    booking: Booking,
    counter: AccountSummary,
  ): Promise<TransactionView> {
    const legs = adjustmentLegs(booking.differenceMinor, booking.source.normalBalance);
    // An amount mismatch's reference already names the transaction it differs from.
    const externalRef =
      ticket.kind === 'missing_in_ledger'
        ? bookingReference(booking.lines[0]!.refs, EXTERNAL_REF_LENGTH_MAX)
        : undefined;
    const line = booking.lines.length === 1 ? booking.lines[0]!.description : '';
    const description = command.description ?? (line || ticket.summary);
    const { transaction, created } = await this.posting.execute({
      tenantId: command.tenantId,
      actor: command.actor,
      request: {
        ...(externalRef === undefined ? {} : { externalRef }),
        description: description.slice(0, DESCRIPTION_LENGTH_MAX),
        effectiveAt: command.effectiveAt ?? defaultEffectiveAt(booking.lines, new Date()),
        metadata: { discrepancyId: ticket.id },
        entries: [
          {
            account: booking.source.code,
            direction: legs.source,
            amount: legs.amountMinor,
            currency: booking.currency,
          },
          { account: counter.code, direction: legs.counter, amount: legs.amountMinor, currency: booking.currency },
        ],
      },
    });
    // The content names this ticket: the same content under the reference is this very booking, made before.
    if (!created) throw notAdjustable(ticket, `transaction ${transaction.id} already books it`);
    return transaction;
  }

  /** Resolved with the booking in its history, one version on, and its event in the outbox. */
  private async resolve(
    tenantId: string,
    actor: string,
    ticket: Ticket,
    note: string,
    booked: { transactionId: string; matchId: string; counterAccount: string },
  ): Promise<Ticket> {
    const now = new Date();
    const next: Ticket = { ...ticket, status: 'resolved', resolvedAt: now, updatedAt: now };
    Object.assign(next, await this.tickets.work(tenantId, next));
    await this.tickets.appendEvents(tenantId, [
      {
        ticketId: ticket.id,
        actor,
        action: 'resolved',
        note,
        changes: { status: { from: ticket.status, to: 'resolved' }, ...booked },
      },
    ]);
    await this.outbox.append(tenantId, [
      {
        type: 'discrepancy.resolved',
        aggregateType: 'discrepancy',
        aggregateId: ticket.id,
        aggregateVersion: BigInt(next.updatedAt.getTime()),
        data: { discrepancy: ticketView(next) },
      },
    ]);
    return next;
  }
}
