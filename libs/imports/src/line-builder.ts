import { DESCRIPTION_CHARS_MAX, FIELD_CHARS_MAX } from './limits';
import { StatementLineIdentities } from './line-identity';
import { ownText } from './own-text';
import {
  type Counterparty,
  type LineReferences,
  type StatementError,
  statementError,
  type StatementLine,
} from './statement-items';
import { boundedRaw } from './text-input';

/** A parsed line before the checks every format shares (field limits, identity, order in the statement). */
export interface LineDraft {
  lineNumber: number;
  bookedOn: string;
  valueOn: string | null;
  amountMinor: bigint;
  currency: string;
  reversal: boolean;
  references: LineReferences;
  typeCode?: string;
  counterparty?: Counterparty;
  description: string;
  raw: string;
  grossMinor?: bigint;
  feeMinor?: bigint;
  /**
   * A reference of the bank that, with account, value date, amount and currency, identifies the movement
   * (MT940/MT942 :61: after `//`); used for the id instead of the whole content, see line-identity.ts.
   */
  identityReference?: string;
}

// A line outlives the chunk of text it was cut from (the import keeps batches of lines), so every string it
// keeps is an own copy: a line holds its own characters, not the chunk's (see own-text.ts).

function compactReferences(references: LineReferences): LineReferences {
  // A plain loop: this runs for every line of million-line files.
  const compact: LineReferences = {};
  for (const name in references) {
    const value = references[name as keyof LineReferences];
    if (typeof value === 'string' && value !== '') compact[name as keyof LineReferences] = ownText(value);
  }
  return compact;
}

const COUNTERPARTY_FIELDS = ['name', 'account', 'bankCode', 'ultimateDebtor', 'ultimateCreditor'] as const;

function compactCounterparty(counterparty: Counterparty | undefined): Counterparty | undefined {
  if (counterparty === undefined) return undefined;
  const compact: Counterparty = {};
  let kept = 0;
  for (const name of COUNTERPARTY_FIELDS) {
    const value = counterparty[name];
    if (value === undefined || value === '') continue;
    compact[name] = ownText(value);
    kept += 1;
  }
  return kept === 0 ? undefined : compact;
}

/** problems, with one more when value is longer than charsMax; the label is `${kind} ${name}` (no name: kind). */
function tooLong(
  problems: string[],
  kind: string,
  name: string,
  value: string | undefined,
  charsMax: number,
): string[] {
  if (value === undefined || value.length <= charsMax) return problems;
  const found = problems === NO_PROBLEMS ? [] : problems;
  const label = name === '' ? kind : `${kind} ${name}`;
  found.push(`${label} is ${value.length} characters long, more than ${charsMax}`);
  return found;
}

const NO_PROBLEMS: string[] = Object.freeze([]) as unknown as string[];

// No closure and no array until a field is too long: this runs for every line of million-line files.
function fieldProblems(draft: LineDraft, bankId: string | undefined): string[] {
  let problems = NO_PROBLEMS;
  for (const name in draft.references)
    problems = tooLong(problems, 'reference', name, draft.references[name as keyof LineReferences], FIELD_CHARS_MAX);
  const counterparty = draft.counterparty;
  if (counterparty !== undefined)
    for (const name of COUNTERPARTY_FIELDS)
      problems = tooLong(problems, 'counterparty', name, counterparty[name], FIELD_CHARS_MAX);
  problems = tooLong(problems, 'type code', '', draft.typeCode, FIELD_CHARS_MAX);
  problems = tooLong(problems, 'description', '', draft.description, DESCRIPTION_CHARS_MAX);
  return tooLong(problems, 'unique reference', '', bankId, FIELD_CHARS_MAX);
}

/** Turns drafts into lines of one statement: numbering, limits and the externalId rule in one place. */
export class StatementLineBuilder {
  private sequence = 0;
  private readonly identities: StatementLineIdentities;

  constructor(
    readonly statementIndex: number,
    accountId: string | null,
  ) {
    this.identities = new StatementLineIdentities(accountId);
  }

  get lineCount(): number {
    return this.sequence;
  }

  /**
   * @param bankId the source's own unique id for the line (already prefixed, see line-identity.ts), when the
   * format has one; otherwise the content hash is used.
   */
  build(draft: LineDraft, bankId: string | undefined): StatementLine | StatementError[] {
    const problems = fieldProblems(draft, bankId);
    if (problems.length > 0) return problems.map((problem) => statementError(draft.lineNumber, problem));
    const references = compactReferences(draft.references);
    const counterparty = compactCounterparty(draft.counterparty);
    let externalId = bankId;
    if (externalId === undefined) {
      const identity =
        draft.identityReference === undefined
          ? this.identities.fromContent({ ...draft, references })
          : this.identities.fromReference(draft.identityReference, draft);
      if ('error' in identity) return [statementError(draft.lineNumber, identity.error)];
      externalId = identity.externalId;
    }
    this.sequence += 1;
    const line: StatementLine = {
      kind: 'line',
      lineNumber: draft.lineNumber,
      statementIndex: this.statementIndex,
      sequenceInStatement: this.sequence,
      bookedOn: ownText(draft.bookedOn),
      valueOn: draft.valueOn === null ? null : ownText(draft.valueOn),
      amountMinor: draft.amountMinor,
      currency: ownText(draft.currency),
      reversal: draft.reversal,
      references,
      description: ownText(draft.description),
      raw: ownText(boundedRaw(draft.raw)),
      externalId: ownText(externalId),
    };
    if (draft.typeCode !== undefined && draft.typeCode !== '') line.typeCode = ownText(draft.typeCode);
    if (counterparty !== undefined) line.counterparty = counterparty;
    if (draft.grossMinor !== undefined) line.grossMinor = draft.grossMinor;
    if (draft.feeMinor !== undefined) line.feeMinor = draft.feeMinor;
    return line;
  }
}
