import { SqlArray } from '@ledger/db';
import { newIdBytes } from '@ledger/ids';
import type { StatementLine } from '../statement-items';
import type { LineColumnParams } from './imports.sql';

/**
 * A batch of statement lines kept column by column, as INSERT_LINES' arrays. A line is written into its
 * columns as it arrives (each a SqlArray, in PostgreSQL's binary format outside the JavaScript heap), so the
 * parsed line and its strings die young: a batch waiting to be sent holds no string for the garbage collector
 * to copy or promote, and it is sent as it is, with no literal to build. PostgreSQL reads typed arrays with
 * far less work than a JSON document of the same rows; the references and counterparties go as JSON texts.
 */
export class StatementLineColumns {
  private readonly externalIds = SqlArray.of('text');
  private readonly lineNumbers = SqlArray.of('int4');
  private readonly statementIndexes = SqlArray.of('int4');
  private readonly bookedOns = SqlArray.of('date');
  private readonly valueOns = SqlArray.of('date');
  private readonly amountsMinor = SqlArray.of('int8');
  private readonly currencies = SqlArray.of('text');
  private readonly reversals = SqlArray.of('bool');
  private readonly typeCodes = SqlArray.of('text');
  /** JSON texts (null for a line without a counterparty), read as jsonb by INSERT_LINES. */
  private readonly references = SqlArray.of('text');
  private readonly counterparties = SqlArray.of('text');
  private readonly descriptions = SqlArray.of('text');
  private readonly grossesMinor = SqlArray.of('int8');
  private readonly feesMinor = SqlArray.of('int8');
  private readonly raws = SqlArray.of('text');

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
    this.counterparties.push(line.counterparty === undefined ? null : JSON.stringify(line.counterparty));
    this.descriptions.push(line.description);
    this.grossesMinor.push(line.grossMinor ?? null);
    this.feesMinor.push(line.feeMinor ?? null);
    this.raws.push(line.raw);
  }

  /** The arrays, as INSERT_LINES names them; asked once per batch (the lines' ids are made here). */
  parameters(): LineColumnParams {
    return {
      // Time-ordered ids: new lines go to the right edge of the primary key, not all over it.
      ids: SqlArray.ofUuidBytes(newIdBytes(this.size)),
      externalIds: this.externalIds,
      lineNumbers: this.lineNumbers,
      statementIndexes: this.statementIndexes,
      bookedOns: this.bookedOns,
      valueOns: this.valueOns,
      amountsMinor: this.amountsMinor,
      currencies: this.currencies,
      reversals: this.reversals,
      typeCodes: this.typeCodes,
      references: this.references,
      counterparties: this.counterparties,
      descriptions: this.descriptions,
      grossesMinor: this.grossesMinor,
      feesMinor: this.feesMinor,
      raws: this.raws,
    };
  }
}
