export { buildBalanceProof, inclusionProofOf, type BooksAtPosition } from './domain/build-proof';
export { verifyProof, CHECKS, type CheckName, type CheckResult, type Verdict, type VerifyOptions } from './domain/verify-proof';
export { proofKeyFrom, keyIdOf, type ProofKey } from './domain/signing';
export { ACCOUNTS_PER_PROOF_MAX, CONSISTENCY_LINKS_MAX } from './domain/limits';
export type { BalanceProofDocument, InclusionProofDocument, ConsistencyDocument } from './domain/proof-document';
