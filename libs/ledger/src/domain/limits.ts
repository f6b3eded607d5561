// Every list, body and field the ledger accepts has a bound; exceeding one is a clear error.
export const LEGS_PER_TRANSACTION_MAX = 100;
export const DESCRIPTION_LENGTH_MAX = 1000;
export const EXTERNAL_REF_LENGTH_MAX = 255;
export const ACCOUNT_NAME_LENGTH_MAX = 200;
export const METADATA_BYTES_MAX = 8192;
export const METADATA_DEPTH_MAX = 5;
export const PAGE_SIZE_MAX = 200;
export const PAGE_SIZE_DEFAULT = 50;
export const HOLD_DURATION_MAX_MS = 90 * 24 * 3600 * 1000;
export const BATCH_SIZE_MAX = 1000;
