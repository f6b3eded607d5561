import { createHash, randomBytes } from 'node:crypto';

export type WorkloadName = 'uncontended' | 'hot' | 'batch100' | 'batch1000';
export const WORKLOADS: readonly WorkloadName[] = ['uncontended', 'hot', 'batch100', 'batch1000'];
/** pgbench driving plain SQL (the shared baselines) and pgledger's function (pgbench-peers.ts). */
export type PeerMode = 'pgbench' | 'pgledger';
export const PEER_MODES: readonly PeerMode[] = ['pgbench', 'pgledger'];
/**
 * api: the API over HTTP, driven by this process; sql: plain SQL issued by this process over pg (the bench's
 * own baseline); wrk: the API over HTTP, driven by wrk (wrk-load.ts).
 */
export type Mode = 'api' | 'sql' | 'wrk' | PeerMode;
export const MODES = ['api', 'sql'] as const;

/** Transfers per request: 1 for the single-transfer workloads, else the batch size. */
export const TRANSFERS_PER_REQUEST: Record<WorkloadName, number> = {
  uncontended: 1,
  hot: 1,
  batch100: 100,
  batch1000: 1000,
};

export function isBatchWorkload(workload: WorkloadName): boolean {
  return TRANSFERS_PER_REQUEST[workload] > 1;
}

export const CURRENCY = 'USD';
export const TRANSFER_AMOUNT_MAX_MINOR = 100;

/** The accounts one mode transfers between; index i of `walletIds` is wallet number i + 1. */
export interface Fixture {
  tenantId: string;
  walletIds: string[];
  hotAccountId: string;
}

export interface Transfer {
  debitAccountId: string;
  creditAccountId: string;
  amountMinor: bigint;
}

function randomIndex(bound: number): number {
  return Math.floor(Math.random() * bound);
}

/**
 * uncontended (and every transfer of a batch): between two random distinct wallets, so two transfers
 * rarely share a row lock. hot: from a random wallet to the single hot account, so every transfer
 * queues on one row lock. Wallets are credit-normal: the debit leg takes money out, the credit leg puts it in.
 */
export function nextTransfer(workload: WorkloadName, fixture: Fixture): Transfer {
  const amountMinor = BigInt(1 + randomIndex(TRANSFER_AMOUNT_MAX_MINOR));
  const count = fixture.walletIds.length;
  const from = randomIndex(count);
  if (workload === 'hot')
    return { debitAccountId: fixture.walletIds[from]!, creditAccountId: fixture.hotAccountId, amountMinor };
  const to = (from + 1 + randomIndex(count - 1)) % count;
  return { debitAccountId: fixture.walletIds[from]!, creditAccountId: fixture.walletIds[to]!, amountMinor };
}

export function walletCode(number: number): string {
  return `wallet:${String(number).padStart(5, '0')}`;
}

/** A UUID version 7 (time-ordered), like the API's ids, so both modes grow their indexes alike. */
export function uuidV7(nowMs: number = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(nowMs, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Idempotency keys unique across runs and bench invocations (the database is fresh anyway). */
export function idempotencyKeyPrefix(label: string): string {
  return `${label}-${randomBytes(6).toString('hex')}`;
}
