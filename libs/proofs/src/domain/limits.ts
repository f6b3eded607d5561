/**
 * Accounts in one balance proof (one JSON document, built and verified in memory), and in one journal
 * export (whose account list and closing balances are held in memory while the journal streams).
 */
export const ACCOUNTS_PER_PROOF_MAX = 200_000;
/** Journal links carried in one consistency segment (between an earlier proof and a new one). */
export const CONSISTENCY_LINKS_MAX = 200_000;
/** Stripes a checkpoint may name (the ledger has 16 per tenant). */
export const STRIPES_MAX = 256;
/** Currencies a checkpoint may name. */
export const CURRENCIES_MAX = 1_000;
