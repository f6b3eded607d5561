import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { VerifyJournalUseCase } from '@ledger/ledger';
import type { Finding } from '../domain/finding';
import {
  BROKEN_STATEMENTS,
  CACHED_BALANCES,
  NEGATIVE_ACCOUNTS,
  STALE_HOLDS,
  TRIAL_BALANCE,
  UNBALANCED_TRANSACTIONS,
} from './invariant-checks.sql';

/** Findings kept per check and run; more are summarised in the run's stats, never loaded. */
export const FINDINGS_PER_CHECK_MAX = 1_000;
/** A hold this long past its expiry means the expiry job is not keeping up. */
export const STALE_HOLD_GRACE_SECONDS = 300;

interface Row {
  key: string;
  currency: string | null;
  amount: string | null;
  source?: string | null;
  account_code?: string | null;
  detail?: Record<string, unknown> | null;
}

interface Check {
  name: string;
  sql: string;
  params?: unknown[];
  finding(row: Row): Omit<Finding, 'fingerprint' | 'evidence'> & { evidence?: Record<string, unknown> };
}

const CHECKS: Check[] = [
  {
    name: 'zero_sum',
    sql: UNBALANCED_TRANSACTIONS,
    finding: (row) => ({
      kind: 'invariant_violation',
      summary: `transaction ${row.key} does not balance in ${row.currency}`,
      amountMinor: BigInt(row.amount!),
      currency: row.currency,
      accountCode: null,
      source: null,
      evidence: { transactionId: row.key },
    }),
  },
  {
    name: 'trial_balance',
    sql: TRIAL_BALANCE,
    finding: (row) => ({
      kind: 'invariant_violation',
      summary: `the trial balance in ${row.currency} is ${row.amount}, not zero`,
      amountMinor: BigInt(row.amount!),
      currency: row.currency,
      accountCode: null,
      source: null,
    }),
  },
  {
    name: 'cached_balances',
    sql: CACHED_BALANCES,
    finding: (row) => ({
      kind: 'invariant_violation',
      summary: `account ${row.key}: cached balances differ from its entries`,
      amountMinor: BigInt(row.amount!),
      currency: row.currency,
      accountCode: row.key,
      source: null,
    }),
  },
  {
    name: 'non_negative',
    sql: NEGATIVE_ACCOUNTS,
    finding: (row) => ({
      kind: 'invariant_violation',
      summary: `account ${row.key} may not go negative but has ${row.amount} available`,
      amountMinor: BigInt(row.amount!),
      currency: row.currency,
      accountCode: row.key,
      source: null,
    }),
  },
  {
    name: 'stale_holds',
    sql: STALE_HOLDS,
    params: [STALE_HOLD_GRACE_SECONDS],
    finding: (row) => ({
      kind: 'stale_hold',
      summary: `hold ${row.key} is past its expiry and still open`,
      amountMinor: BigInt(row.amount!),
      currency: row.currency,
      accountCode: null,
      source: null,
      evidence: { holdId: row.key },
    }),
  },
  {
    name: 'statement_continuity',
    sql: BROKEN_STATEMENTS,
    finding: (row) => ({
      kind: 'balance_continuity',
      summary: `statement ${row.key} of ${row.source}: opening balance plus lines is not the closing balance`,
      amountMinor: row.amount === null ? null : BigInt(row.amount),
      currency: row.currency,
      accountCode: row.account_code ?? null,
      source: row.source ?? null,
    }),
  },
];

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

/** Runs every internal invariant for one tenant; each is one query, plus the journal's re-computation. */
@Injectable()
export class InvariantChecks {
  constructor(
    private readonly db: Database,
    private readonly verifyJournal: VerifyJournalUseCase,
  ) {}

  /**
   * Every invariant, and `work` (the rest of the run) done meanwhile where the database allows: the
   * journal's re-computation is mostly hashing in Node, so with a server it reads in a transaction of
   * its own (one snapshot of the whole journal) while the set-based checks and `work` keep PostgreSQL
   * busy in the run's transaction. The embedded database has one connection: there it runs after them.
   */
  async runAlongside<T>(tenantId: string, work: () => Promise<T>): Promise<{ outcomes: CheckOutcome[]; result: T }> {
    const inRun = async () => {
      const outcomes: CheckOutcome[] = [];
      for (const check of CHECKS) outcomes.push(await timed(check.name, () => this.setBasedCheck(tenantId, check)));
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
    const rows = await this.db.executor.query<Row>(check.sql, [
      tenantId,
      FINDINGS_PER_CHECK_MAX,
      ...(check.params ?? []),
    ]);
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
