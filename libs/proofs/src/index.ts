export { buildBalanceProof, inclusionProofOf, type BooksAtPosition } from './domain/build-proof';
export {
  verifyProof,
  CHECKS,
  type CheckName,
  type CheckResult,
  type Verdict,
  type VerifyOptions,
} from './domain/verify-proof';
export { proofKeyFrom, keyIdOf, type ProofKey } from './domain/signing';
export { ACCOUNTS_PER_PROOF_MAX, CONSISTENCY_LINKS_MAX } from './domain/limits';
export { journalHeadDigest } from './domain/checkpoint';
export type {
  BalanceProofDocument,
  CheckpointHeaderDocument,
  InclusionProofDocument,
  ConsistencyDocument,
} from './domain/proof-document';
export { ProofsModule, PROOFS_PER_MINUTE_MAX_DEFAULT } from './proofs.module';
export { IssueBalanceProofUseCase } from './balance-proofs/issue-balance-proof.use-case';
export { GetBalanceProofUseCase } from './balance-proofs/get-balance-proof.use-case';
export { GetInclusionProofUseCase } from './balance-proofs/get-inclusion-proof.use-case';
export { GetProofKeyUseCase } from './balance-proofs/get-proof-key.use-case';
