import { newIdDigits } from '@ledger/ids';
import type { StatementLine } from '../statement-items';
import type { LineColumnParams } from './imports.sql';

/**
 * A batch of statement lines kept column by column, as INSERT_LINES' arrays. A line is taken apart as it
 * arrives, so the parsed line object dies young (no batch of objects for the garbage collector to promote),
 * and the batch travels as one array per column: PostgreSQL reads typed arrays with far less work than a
 * JSON document of the same rows. The references and counterparties are JSON already: their texts are joined
 * into one JSON array each, not escaped again as the elements of a text array.
 */
export class StatementLineColumns {
  private readonly externalIds: string[] = [];
  private readonly lineNumbers: number[] = [];
  private readonly statementIndexes: number[] = [];
  private readonly bookedOns: string[] = [];
  private readonly valueOns: (string | null)[] = [];
  private readonly amountsMinor: bigint[] = [];
  private readonly currencies: string[] = [];
  private readonly reversals: boolean[] = [];
  private readonly typeCodes: (string | null)[] = [];
  /** JSON texts, sent as one JSON array each. */
  private readonly references: string[] = [];
  private readonly counterparties: string[] = [];
  private readonly descriptions: string[] = [];
  private readonly grossesMinor: (bigint | null)[] = [];
  private readonly feesMinor: (bigint | null)[] = [];
  private readonly raws: string[] = [];

  get size(): number {
    return this.externalIds.length;
  }

  add(line: StatementLine): void {
    this.externalIds.push(line.externalId);
    this.lineNumbers.push(line.lineNumber);
    this.statementIndexes.push(line.statementIndex);
    this.bookedOns.push(line.bookedOn);
    this.valueOns.push(line.valueOn);
    this.amountsMinor.push(line.amountMinor);
    this.currencies.push(line.currency);
    this.reversals.push(line.reversal);
    this.typeCodes.push(line.typeCode ?? null);
    this.references.push(JSON.stringify(line.references));
    this.counterparties.push(line.counterparty === undefined ? 'null' : JSON.stringify(line.counterparty));
    this.descriptions.push(line.description);
    this.grossesMinor.push(line.grossMinor ?? null);
    this.feesMinor.push(line.feeMinor ?? null);
    this.raws.push(line.raw);
  }

  /** The arrays, as INSERT_LINES names them; asked once per batch (the lines' ids are made here). */
  parameters(): LineColumnParams {
    return {
      // Time-ordered ids: new lines go to the right edge of the primary key, not all over it.
      ids: newIdDigits(this.size),
      externalIds: this.externalIds,
      lineNumbers: this.lineNumbers,
      statementIndexes: this.statementIndexes,
      bookedOns: this.bookedOns,
      valueOns: this.valueOns,
      amountsMinor: this.amountsMinor,
      currencies: this.currencies,
      reversals: this.reversals,
      typeCodes: this.typeCodes,
      references: `[${this.references.join(',')}]`,
      counterparties: `[${this.counterparties.join(',')}]`,
      descriptions: this.descriptions,
      grossesMinor: this.grossesMinor,
      feesMinor: this.feesMinor,
      raws: this.raws,
    };
  }
}
