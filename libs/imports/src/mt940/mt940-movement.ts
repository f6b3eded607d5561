import type { LineDraft } from '../line-builder';
import type { Mt940Movement } from './mt940-fields';
import { parseInformation } from './mt940-information';

/** A :61: with the physical lines that follow it, gathered until the next tag that is not its :86:. */
export interface PendingMovement {
  line: number;
  movement: Mt940Movement;
  currency: string;
  information: string[];
  supplementary: string[];
  raw: string[];
  /** Set when the movement is reported as an error: it is then not yielded as a line. */
  refused: boolean;
}

/** The line a gathered :61: [:86:] makes, in MT940 and MT942 alike. */
export function movementDraft(pending: PendingMovement): LineDraft {
  const { movement } = pending;
  const information = parseInformation(pending.information);
  const supplementary = pending.supplementary
    .map((part) => part.trim())
    .join(' ')
    .trim();
  return {
    lineNumber: pending.line,
    bookedOn: movement.bookedOn,
    valueOn: movement.valueOn,
    amountMinor: movement.amountMinor,
    currency: pending.currency,
    reversal: movement.reversal,
    references: {
      ...information.references,
      customerReference: movement.customerReference ?? information.references.customerReference,
      bankReference: movement.bankReference,
    },
    // The SWIFT type (NTRF) and, where the :86: has one, the German business code: "NTRF/166".
    typeCode:
      information.businessCode === undefined ? movement.typeCode : `${movement.typeCode}/${information.businessCode}`,
    counterparty: information.counterparty,
    description: [information.description, supplementary].filter((part) => part !== '').join(' '),
    raw: pending.raw.join('\n'),
    // The bank's own reference identifies the movement in the interim report and the final statement alike.
    identityReference: movement.bankReference,
  };
}
