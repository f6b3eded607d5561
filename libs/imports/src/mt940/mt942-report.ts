import { dateTimeProblem, floorLimitCurrency, type Mt942Totals, parseTotals } from './mt942-fields';
import type { Phase } from './mt940-syntax';

/** The tags an MT942 report has and an MT940 statement does not; the MT940 reader hands them here. */
export const MT942_TAGS: ReadonlySet<string> = new Set(['34F', '13D', '90D', '90C']);

const PHASES: Record<Phase, string> = {
  header: 'before the date/time indication :13D:',
  lines: 'between the date/time indication :13D: and the totals :90D:/:90C:',
  closed: 'after the totals :90D:/:90C:',
};

interface Sums {
  count: number;
  sumMinor: bigint;
}

/**
 * What an MT942 report adds to the MT940 reader's statement: its currency from the floor limit :34F:, the
 * date/time indication :13D: that opens its lines, and the totals :90D: (debits) and :90C: (credits) that
 * close them. Totals that differ from the lines read are a warning, like a camt statement that does not
 * add up: the lines are still what the bank reported.
 */
export class Mt942Report {
  readonly phases = PHASES;
  private dateTimeSeen = false;
  private floorLimitSeen = false;
  private readonly totals: { D: Mt942Totals | null; C: Mt942Totals | null } = { D: null, C: null };
  private readonly read: { D: Sums; C: Sums } = { D: { count: 0, sumMinor: 0n }, C: { count: 0, sumMinor: 0n } };

  constructor(
    private readonly setPhase: (phase: Phase) => void,
    private readonly phase: () => Phase,
    private readonly setCurrency: (currency: string) => void,
    private readonly error: (lineNumber: number, reason: string) => void,
  ) {}

  tag(tag: string, value: string, lineNumber: number): void {
    const misplaced = (expected: string) =>
      this.error(lineNumber, `tag :${tag}: ${PHASES[this.phase()]}; it belongs ${expected}`);
    if (tag === '34F' || tag === '13D') {
      if (this.phase() !== 'header') return misplaced(PHASES.header);
      if (tag === '34F') return this.floorLimit(value, lineNumber);
      if (!this.floorLimitSeen)
        this.error(lineNumber, 'report has no floor limit :34F: before :13D:, so its lines have no currency');
      const problem = dateTimeProblem(value);
      if (problem !== null) this.error(lineNumber, problem);
      this.dateTimeSeen = true;
      return this.setPhase('lines');
    }
    // :90D: and :90C: follow the lines; a report with no line may give them right after :13D:.
    if (this.phase() === 'header') return misplaced('after the lines');
    this.setPhase('closed');
    const mark = tag === '90D' ? 'D' : 'C';
    if (this.totals[mark] !== null) return this.error(lineNumber, `report has a second :${tag}:`);
    const totals = parseTotals(value);
    if (!totals.ok) return this.error(lineNumber, totals.reason);
    this.totals[mark] = totals.value;
  }

  /** Counts a line as read; debits (negative amounts, RC reversals too) go with :90D:, credits with :90C:. */
  count(amountMinor: bigint): void {
    const sums = amountMinor < 0n ? this.read.D : this.read.C;
    sums.count += 1;
    sums.sumMinor += amountMinor < 0n ? -amountMinor : amountMinor;
  }

  /** Ends the report: the warnings for totals that do not match. */
  finish(lineNumber: number, currency: string | null): string[] {
    if (!this.dateTimeSeen) this.error(lineNumber, 'report has no date/time indication :13D:');
    const warnings: string[] = [];
    for (const mark of ['D', 'C'] as const) {
      const given = this.totals[mark];
      if (given === null) continue;
      const read = this.read[mark];
      const kind = mark === 'D' ? 'debit' : 'credit';
      if (given.count !== read.count || given.sumMinor !== read.sumMinor || given.currency !== currency) {
        warnings.push(
          `:90${mark}: says ${given.count} ${kind} entries of ${given.sumMinor} minor units ${given.currency}; ` +
            `the report has ${read.count} of ${read.sumMinor} ${currency ?? ''}`.trimEnd(),
        );
      }
    }
    return warnings;
  }

  private floorLimit(value: string, lineNumber: number): void {
    this.floorLimitSeen = true;
    const currency = floorLimitCurrency(value);
    if (!currency.ok) return this.error(lineNumber, currency.reason);
    this.setCurrency(currency.value);
  }
}
