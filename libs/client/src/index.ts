// The ledger's API as TypeScript: the types generated from openapi.json, and a typed client over them.
import type { components } from './generated/ledger-api';

export type { components, operations, paths } from './generated/ledger-api';
export {
  createLedgerClient,
  newIdempotencyKey,
  type LedgerClient,
  type LedgerClientOptions,
} from './ledger-client';

/** A shape of the API by its name in the document: `LedgerSchema<'Transaction'>`. */
export type LedgerSchema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** An error code the API answers with (`INSUFFICIENT_FUNDS`, ...). */
export type LedgerErrorCode = {
  [Name in keyof components['schemas']]: components['schemas'][Name] extends { error: { code: infer Code } }
    ? Code
    : never;
}[keyof components['schemas']];
