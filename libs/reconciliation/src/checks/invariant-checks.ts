import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { StatementSourceReader } from '@ledger/imports';
import { formatMoney } from '@ledger/money';
import { BooksAuditRepository, type BooksAuditRow, VerifyJournalUseCase } from '@ledger/ledger';
import { PaymentOrderReader } from '@ledger/payments';
import type { Finding } from '../domain/finding';

/** Findings kept per check and run; more are summarised in the run's stats, never loaded. */
export const FINDINGS_PER_CHECK_MAX = 1_000;
/** A hold this long past its expiry means the expiry job is not keeping up. */
export const STALE_HOLD_GRACE_SECONDS = 300;

/** A row that breaks an invariant, as the ledger's audit or the imports' reader answers it. */
interface Breach extends BooksAuditRow {
  source?: string | null;
  accountCode?: string | null;
}

/** A breach's amount as a person reads it: major units of its currency. */
const amountOf = (row: Breach) => formatMoney(BigInt(row.amount!), row.currency!);

type Found = Omit<Finding, 'fingerprint' | 'evidence'> & { evidence?: Record<string, unknown> };

interface Check {
  name: string;
  read(tenantId: string, limit: number): Promise<Breach[]>;
  finding(row: Breach): Found;
}

const ledgerWide = (row: Breach, found: Pick<Found, 'kind' | 'summary'> & Partial<Found>): Found => ({
  amountMinor: BigInt(row.amount!),
  currency: row.currency,
  accountCode: null,
  source: null,
  ...found,
});

/** The set-based checks: each one read by the lib that owns the rows, each row one finding. */
/** Orders past their step's deadline, as rows of a check: the order's latest steps are the evidence. */
async function stuckOrders(payments: PaymentOrderReader, tenantId: string, limit: number): Promise<Breach[]> {
  return (await payments.stuckOrders(tenantId, limit)).map((order) => ({
    key: order.id,
    currency: order.currency,
    amount: order.amountMinor.toString(),
    accountCode: order.sourceAccount,
    detail: {
      paymentOrderId: order.id,
      status: order.status,
      connector: order.connector,
      deadlineAt: order.deadlineAt.toISOString(),
      attempts: order.attempts,
      lastError: order.lastError,
      steps: order.steps,
    },
  }));
}

function checks(audit: BooksAuditRepository, statements: StatementSourceReader, payments: PaymentOrderReader): Check[] {
  return [
    {
      name: 'zero_sum',
      read: (tenantId, limit) => audit.unbalancedTransactions(tenantId, limit),
      finding: (row) =>
        ledgerWide(row, {
          kind: 'invariant_violation',
          summary: `transaction ${row.key} does not balance in ${row.currency}`,
          evidence: { transactionId: row.key },
        }),
    },
    {
      name: 'trial_balance',
      read: (tenantId, limit) => audit.trialBalance(tenantId, limit),
      finding: (row) =>
        ledgerWide(row, {
          kind: 'invariant_violation',
          summary: `the trial balance in ${row.currency} is ${amountOf(row)}, not zero`,
        }),
    },
    {
      name: 'cached_balances',
      read: (tenantId, limit) => audit.cachedBalances(tenantId, limit),
      finding: (row) =>
        ledgerWide(row, {
          kind: 'invariant_violation',
          summary: `account ${row.key}: cached balances differ from its entries`,
          accountCode: row.key,
        }),
    },
    {
      name: 'non_negative',
      read: (tenantId, limit) => audit.negativeAccounts(tenantId, limit),
      finding: (row) =>
        ledgerWide(row, {
          kind: 'invariant_violation',
          summary: `account ${row.key} may not go negative but has ${amountOf(row)} available`,
          accountCode: row.key,
        }),
    },
    {
      name: 'stale_holds',
      read: (tenantId, limit) => audit.staleHolds(tenantId, STALE_HOLD_GRACE_SECONDS, limit),
      finding: (row) =>
        ledgerWide(row, {
          kind: 'stale_hold',
          summary: `hold ${row.key} is past its expiry and still open`,
          evidence: { holdId: row.key },
        }),
    },
    {
      name: 'stuck_payment_orders',
      read: (tenantId, limit) => stuckOrders(payments, tenantId, limit),
      finding: (row) => ({
        kind: 'stuck_payment_order',
        summary: `payment order ${row.key} is stuck ${String(row.detail?.status)} past its deadline`,
        amountMinor: BigInt(row.amount!),
        currency: row.currency,
        accountCode: row.accountCode ?? null,
        source: null,
      }),
    },
    {
      name: 'statement_continuity',
      read: (tenantId, limit) => statements.brokenStatements(tenantId, limit),
      finding: (row) => ({
        kind: 'balance_continuity',
        summary: `statement ${row.key} of ${row.source}: opening balance plus lines is not the closing balance`,
        amountMinor: row.amount === null ? null : BigInt(row.amount),
        currency: row.currency,
        accountCode: row.accountCode ?? null,
        source: row.source ?? null,
      }),
    },
  ];
}

export interface CheckOutcome {
  name: string;
  findings: Finding[];
  durationMs: number;
}

async function timed(name: string, work: () => Promise<Finding[]>): Promise<CheckOutcome> {
  const started = performance.now();
  const findings = await work();
  return { name, findings, durationMs: Math.round(performance.now() - started) };
}

/** Runs every internal invariant for one tenant; each is one read, plus the journal's re-computation. */
@Injectable()
export class InvariantChecks {
  private readonly checks: Check[];

  constructor(
    private readonly db: Database,
    private readonly verifyJournal: VerifyJournalUseCase,
    audit: BooksAuditRepository,
    statements: StatementSourceReader,
    payments: PaymentOrderReader,
  ) {
    this.checks = checks(audit, statements, payments);
  }

  /**
   * Every invariant, and `work` (the rest of the run) done meanwhile where the database allows: the
   * journal's re-computation is mostly hashing in Node, so with a server it reads in a transaction of
   * its own (one snapshot of the whole journal) while the set-based checks and `work` keep PostgreSQL
   * busy in the run's transaction. The embedded database has one connection: there it runs after them.
   */
  async runAlongside<T>(tenantId: string, work: () => Promise<T>): Promise<{ outcomes: CheckOutcome[]; result: T }> {
    const inRun = async () => {
      const outcomes: CheckOutcome[] = [];
      for (const check of this.checks) {
        outcomes.push(await timed(check.name, () => this.setBasedCheck(tenantId, check)));
      }
      return { outcomes, result: await work() };
    };
    const journal = () => timed('journal', () => this.journalCheck(tenantId));
    if (!this.db.allowsSeparateTransactions) {
      const done = await inRun();
      return { outcomes: [...done.outcomes, await journal()], result: done.result };
    }
    const [done, journalOutcome] = await Promise.all([
      inRun(),
      this.db.separateTransaction('repeatable read', journal),
    ]);
    return { outcomes: [...done.outcomes, journalOutcome], result: done.result };
  }

  private async setBasedCheck(tenantId: string, check: Check): Promise<Finding[]> {
    const rows = await check.read(tenantId, FINDINGS_PER_CHECK_MAX);
    return rows.map((row) => {
      const found = check.finding(row);
      return {
        ...found,
        fingerprint: `${check.name}:${row.key}`,
        evidence: { check: check.name, ...(row.detail ?? {}), ...(found.evidence ?? {}) },
      };
    });
  }

  private async journalCheck(tenantId: string): Promise<Finding[]> {
    const result = await this.verifyJournal.execute(tenantId);
    if (result.ok || result.firstBroken === null) return [];
    const broken = result.firstBroken;
    return [
      {
        kind: 'invariant_violation',
        // The stripe names the chain; a new break further along the same chain is the same cause.
        fingerprint: `journal:${broken.stripe ?? 'outside'}`,
        summary: `the journal is broken at stripe ${broken.stripe ?? '-'} seq ${broken.seq ?? '-'}: ${broken.reason}`,
        amountMinor: null,
        currency: null,
        accountCode: null,
        source: null,
        evidence: { check: 'journal', ...broken },
      },
    ];
  }
}
