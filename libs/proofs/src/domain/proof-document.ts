import { z } from 'zod';
import { ACCOUNT_CODE_PATTERN, CURRENCY_PATTERN } from './account-leaf';
import { ACCOUNTS_PER_PROOF_MAX, CONSISTENCY_LINKS_MAX, CURRENCIES_MAX, STRIPES_MAX } from './limits';

// The JSON an auditor keeps and verifies. Every value has exactly one accepted spelling (lower-case
// hex, canonical base64 and decimals, ISO instants as toISOString writes them), so that no byte of a
// document can change without changing what it says.

export const BALANCE_PROOF_FORMAT = 'ledger-balance-proof/1';
export const INCLUSION_PROOF_FORMAT = 'ledger-inclusion-proof/1';

const hex32 = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hex digits');
const uuid = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'must be a lower-case UUID');
const unsigned = z.string().regex(/^(0|[1-9][0-9]{0,18})$/, 'must be a canonical non-negative integer');
const signed = z.string().regex(/^(0|-?[1-9][0-9]{0,19})$/, 'must be a canonical integer');
const instant = z
  .string()
  .refine(
    (text) => !Number.isNaN(Date.parse(text)) && new Date(text).toISOString() === text,
    'must be an ISO instant as toISOString writes it',
  );
const base64 = z
  .string()
  .refine(
    (text) => text.length > 0 && Buffer.from(text, 'base64').toString('base64') === text,
    'must be canonical base64',
  );
const count = (max: number) => z.number().int().min(0).max(max);

export const sumsSchema = z.strictObject({
  debitNormalDebits: unsigned,
  debitNormalCredits: unsigned,
  creditNormalDebits: unsigned,
  creditNormalCredits: unsigned,
});

export const checkpointHeaderSchema = z.strictObject({
  id: hex32,
  tenantId: uuid,
  asOf: instant,
  issuedAt: instant,
  keyId: hex32,
  publicKey: base64,
  journal: z.strictObject({
    head: hex32,
    stripes: z
      .array(z.strictObject({ stripe: count(STRIPES_MAX), seq: unsigned, hash: hex32 }))
      .min(1)
      .max(STRIPES_MAX),
  }),
  currencies: z
    .array(
      z.strictObject({
        currency: z.string().regex(CURRENCY_PATTERN),
        accounts: count(ACCOUNTS_PER_PROOF_MAX),
        root: hex32,
        sums: sumsSchema,
        totals: z.strictObject({ debitNormal: signed, creditNormal: signed }),
      }),
    )
    .max(CURRENCIES_MAX),
  signature: base64,
});

export const accountLeafSchema = z.strictObject({
  id: uuid,
  code: z.string().regex(ACCOUNT_CODE_PATTERN),
  currency: z.string().regex(CURRENCY_PATTERN),
  normalBalance: z.enum(['debit', 'credit']),
  postedDebits: unsigned,
  postedCredits: unsigned,
  balance: signed,
});

export const consistencySchema = z.strictObject({
  previousId: hex32,
  stripes: z
    .array(
      z.strictObject({
        stripe: count(STRIPES_MAX),
        links: z
          .array(z.strictObject({ seq: unsigned, encoding: z.string().regex(/^([0-9a-f]{2})+$/) }))
          .max(CONSISTENCY_LINKS_MAX),
      }),
    )
    .max(STRIPES_MAX),
});

export const balanceProofSchema = checkpointHeaderSchema.extend({
  format: z.literal(BALANCE_PROOF_FORMAT),
  accounts: z.array(accountLeafSchema).max(ACCOUNTS_PER_PROOF_MAX),
  consistency: consistencySchema.optional(),
});

export const inclusionProofSchema = z.strictObject({
  format: z.literal(INCLUSION_PROOF_FORMAT),
  checkpoint: checkpointHeaderSchema,
  account: accountLeafSchema,
  index: count(ACCOUNTS_PER_PROOF_MAX),
  path: z.array(z.strictObject({ hash: hex32, sums: sumsSchema })).max(64),
});

export type CheckpointHeaderDocument = z.infer<typeof checkpointHeaderSchema>;
export type AccountLeafDocument = z.infer<typeof accountLeafSchema>;
export type ConsistencyDocument = z.infer<typeof consistencySchema>;
export type BalanceProofDocument = z.infer<typeof balanceProofSchema>;
export type InclusionProofDocument = z.infer<typeof inclusionProofSchema>;
export type SumsDocument = z.infer<typeof sumsSchema>;

/** The signed part of a balance proof, as an inclusion proof carries it. */
export function headerOf(proof: BalanceProofDocument): CheckpointHeaderDocument {
  const { format: _format, accounts: _accounts, consistency: _consistency, ...header } = proof;
  return header;
}
