import type {
  BalanceProofDocument,
  CheckpointHeaderDocument,
  GetProofKeyUseCase,
  InclusionProofDocument,
} from '@ledger/proofs';
import { z } from 'zod';
import { type Assert, type Same, component } from '../components';
import { currency, id, instant, sha256Hex } from './fields';

// The proof documents as the offline verifier reads them (libs/proofs/src/domain/proof-document.ts):
// every value has one spelling, so these say the pattern of each.

const unsigned = z.string().meta({ pattern: '^(0|[1-9][0-9]{0,18})$' });
const signed = z.string().meta({ pattern: '^(0|-?[1-9][0-9]{0,19})$' });
const base64 = z.string().meta({ contentEncoding: 'base64' });

const sums = z.strictObject({
  debitNormalDebits: unsigned,
  debitNormalCredits: unsigned,
  creditNormalDebits: unsigned,
  creditNormalCredits: unsigned,
});

const checkpointFields = {
  id: sha256Hex.meta({ description: 'SHA-256 of the signed checkpoint encoding.' }),
  tenantId: id,
  asOf: instant,
  issuedAt: instant,
  keyId: sha256Hex,
  publicKey: base64,
  journal: z.strictObject({
    head: sha256Hex.meta({ description: 'One digest over the heads of all stripes.' }),
    stripes: z.array(z.strictObject({ stripe: z.number().int().min(0), seq: unsigned, hash: sha256Hex })),
  }),
  currencies: z.array(
    z.strictObject({
      currency,
      accounts: z.number().int().min(0),
      root: sha256Hex.meta({ description: 'Root of the Merkle sum tree of the accounts in this currency.' }),
      sums,
      totals: z.strictObject({ debitNormal: signed, creditNormal: signed }),
    }),
  ),
  signature: base64.meta({ description: 'Ed25519 over the checkpoint encoding.' }),
};

const accountLeaf = z.strictObject({
  id,
  code: z.string(),
  currency,
  normalBalance: z.enum(['debit', 'credit']),
  postedDebits: unsigned,
  postedCredits: unsigned,
  balance: signed,
});

export const balanceProofView = component(
  'BalanceProof',
  z
    .strictObject({
      ...checkpointFields,
      format: z.literal('ledger-balance-proof/1'),
      accounts: z.array(accountLeaf),
      consistency: z
        .strictObject({
          previousId: sha256Hex,
          stripes: z.array(
            z.strictObject({
              stripe: z.number().int().min(0),
              links: z.array(
                z.strictObject({ seq: unsigned, encoding: z.string().meta({ pattern: '^([0-9a-f]{2})+$' }) }),
              ),
            }),
          ),
        })
        .optional()
        .meta({ description: 'With `since`: the journal links from the earlier proof to this one.' }),
    })
    .meta({ description: "A signed checkpoint of the tenant's books; `ledger proof verify` checks it offline." }),
);

export const proofCheckpointView = component(
  'BalanceProofCheckpoint',
  z.strictObject(checkpointFields).meta({
    description:
      'The signed part of a balance proof (its accounts left out): `GET /v1/proofs/balances?proofId=<id>` ' +
      'answers the whole document.',
  }),
);

export const inclusionProofView = component(
  'InclusionProof',
  z
    .strictObject({
      format: z.literal('ledger-inclusion-proof/1'),
      checkpoint: z.strictObject(checkpointFields),
      account: accountLeaf,
      index: z.number().int().min(0),
      path: z.array(z.strictObject({ hash: sha256Hex, sums })),
    })
    .meta({ description: "One account's leaf and the path from it to its currency's signed root." }),
);

export const proofKeyView = component(
  'ProofKey',
  z.strictObject({
    algorithm: z.literal('Ed25519'),
    keyId: sha256Hex.meta({ description: 'SHA-256 of the public key (SPKI DER).' }),
    publicKey: base64.meta({ description: 'SPKI DER, base64.' }),
    publicKeyPem: z.string(),
  }),
);

type Output<Schema extends z.ZodType> = z.output<Schema>;
export type ProofViewsMatch = [
  Assert<Same<BalanceProofDocument, Output<typeof balanceProofView>>>,
  Assert<Same<InclusionProofDocument, Output<typeof inclusionProofView>>>,
  Assert<Same<CheckpointHeaderDocument, Output<typeof proofCheckpointView>>>,
  Assert<Same<ReturnType<GetProofKeyUseCase['execute']>, Output<typeof proofKeyView>>>,
];
