// Identifiers and content fingerprints: pure functions with no database, no Nest and no I/O, so that
// domain rules and the offline proof verifier can use them without loading a driver.
export { canonicalJson, sha256 } from './canonical-json';
export { chainHash } from './hash-chain';
export { isUuid, newId, newIdBytes, uuidText } from './ids';
