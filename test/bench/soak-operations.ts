import { randomUUID } from 'node:crypto';
import type { HttpAnswer } from './http-client';
import { GATEWAY_ACCOUNT, GATEWAY_SOURCE, SALES_ACCOUNT, WALLET_FUNDING_MINOR } from './soak-setup';
import { type SoakState, type Transfer, randomInteger } from './soak-state';

// The soak's mix: each client picks its next operation at random by weight. Every operation names the
// outcomes it expects; a 4xx it provokes on purpose (an overdraft, a race on one hold) is expected.

const HOLD_RESOLUTION = ['201', '409 HOLD_ALREADY_RESOLVED', '409 HOLD_EXPIRED'];
const REVERSAL = ['201', '409 ALREADY_REVERSED', '422 INSUFFICIENT_FUNDS'];
const POSTING = ['201', '422 INSUFFICIENT_FUNDS'];
const LINES_PER_IMPORT = 20;
const BATCH_SIZE_MAX = 40;

const body = <T>(answer: HttpAnswer): T => JSON.parse(answer.body) as T;
const path = (code: string) => encodeURIComponent(code);

async function postTransfer(state: SoakState): Promise<void> {
  const transfer = state.transfer();
  const idempotencyKey = randomUUID();
  const answer = await state.post('post', POSTING, '/v1/transactions', transfer, undefined, idempotencyKey);
  if (answer?.status !== 201) return;
  const transaction = body<{ id: string; externalRef: string }>(answer);
  state.acknowledge(transaction);
  state.postings.add({ idempotencyKey, body: transfer, transactionId: transaction.id });
}

/** More than all wallets of a currency hold together: must be refused, whatever else runs. */
async function overdraw(state: SoakState): Promise<void> {
  const answer = await state.post(
    'post (overdraft on purpose)',
    ['422 INSUFFICIENT_FUNDS'],
    '/v1/transactions',
    state.transfer(WALLET_FUNDING_MINOR * 1000n),
  );
  if (answer?.status === 201) state.acknowledge(body<{ id: string; externalRef: string }>(answer));
}

/** A client retrying after a lost answer: the same key and body must replay the same transaction. */
async function retryPosting(state: SoakState): Promise<void> {
  const sent = state.postings.pick();
  if (sent === undefined) return postTransfer(state);
  const answer = await state.post(
    'post (retry, same key)',
    ['201'],
    '/v1/transactions',
    sent.body,
    undefined,
    sent.idempotencyKey,
  );
  if (answer?.status !== 201) return;
  const replayed = body<{ id: string }>(answer);
  if (replayed.id !== sent.transactionId || answer.headers['idempotent-replayed'] !== 'true') {
    state.recorder.violation(
      `retry of ${sent.idempotencyKey} answered ${replayed.id} (replayed: ` +
        `${String(answer.headers['idempotent-replayed'])}), first answer was ${sent.transactionId}`,
    );
  }
}

async function postBatch(state: SoakState): Promise<void> {
  const transactions = Array.from({ length: randomInteger(2, BATCH_SIZE_MAX) }, () => state.transfer());
  const answer = await state.post('batch', ['201'], '/v1/transactions/batch', { transactions });
  if (answer?.status !== 201) return;
  for (const result of body<{
    results: { status: string; transaction?: { id: string; externalRef: string }; error?: { code: string } }[];
  }>(answer).results) {
    state.recorder.item(
      'batch item',
      ['created', 'error INSUFFICIENT_FUNDS'],
      result.error ? `${result.status} ${result.error.code}` : result.status,
    );
    if (result.status === 'created' && result.transaction) state.acknowledge(result.transaction);
  }
}

/** A hold that expires within seconds: some are posted or voided first, the worker expires the rest. */
async function placeHold(state: SoakState): Promise<void> {
  const transfer: Transfer = {
    ...state.transfer(),
    pending: { expiresAt: new Date(Date.now() + randomInteger(2_000, 20_000)).toISOString() },
  };
  const answer = await state.post('hold', POSTING, '/v1/transactions', transfer);
  if (answer?.status !== 201) return;
  const hold = body<{ id: string; externalRef: string }>(answer);
  state.acknowledge(hold);
  state.openHolds.add({ id: hold.id, amountMinor: BigInt(transfer.entries[0]!.amount) });
}

async function resolveHold(state: SoakState): Promise<void> {
  const hold = state.openHolds.take();
  if (hold === undefined) return placeHold(state);
  const capture = Math.random() < 0.6;
  const partial =
    capture && Math.random() < 0.3 && hold.amountMinor > 1n ? { amount: (hold.amountMinor / 2n).toString() } : {};
  const answer = await state.post(
    capture ? 'hold post' : 'hold void',
    HOLD_RESOLUTION,
    `/v1/transactions/${hold.id}/${capture ? 'post' : 'void'}`,
    partial,
  );
  if (answer?.status === 201) state.acknowledge(body<{ id: string }>(answer));
}

/** Post and void of one hold at once: at most one may win. */
async function raceOnHold(state: SoakState): Promise<void> {
  const hold = state.openHolds.take();
  if (hold === undefined) return placeHold(state);
  const answers = await Promise.all(
    ['post', 'void'].map((action) =>
      state.post(`hold ${action} (race)`, HOLD_RESOLUTION, `/v1/transactions/${hold.id}/${action}`, {}),
    ),
  );
  const winners = answers.filter((answer) => answer?.status === 201);
  for (const winner of winners) state.acknowledge(body<{ id: string }>(winner!));
  if (winners.length > 1) state.recorder.violation(`hold ${hold.id} was both posted and voided`);
}

async function reverse(state: SoakState, racing: boolean): Promise<void> {
  const sent = state.postings.pick();
  if (sent === undefined) return postTransfer(state);
  const operation = racing ? 'reverse (race)' : 'reverse';
  const attempts = racing ? 2 : 1;
  const answers = await Promise.all(
    Array.from({ length: attempts }, () =>
      state.post(operation, REVERSAL, `/v1/transactions/${sent.transactionId}/reverse`, {
        description: 'soak reversal',
      }),
    ),
  );
  const winners = answers.filter((answer) => answer?.status === 201);
  for (const winner of winners) state.acknowledge(body<{ id: string }>(winner!));
  if (winners.length > 1) state.recorder.violation(`transaction ${sent.transactionId} was reversed twice`);
}

async function readAccount(state: SoakState): Promise<void> {
  await state.get('read account', `/v1/accounts/${path(state.randomWallet('USD'))}`);
}

async function readBalanceAsOf(state: SoakState): Promise<void> {
  const fundedAtMs = Date.parse(state.world.fundedAt);
  const asOf = new Date(fundedAtMs + Math.random() * (Date.now() - fundedAtMs)).toISOString();
  await state.get(
    'read balance asOf',
    `/v1/accounts/${path(state.randomWallet(Math.random() < 0.75 ? 'USD' : 'EUR'))}/balance` +
      `?asOf=${encodeURIComponent(asOf)}`,
  );
}

async function readEntries(state: SoakState): Promise<void> {
  await state.get('read entries', `/v1/accounts/${path(state.randomWallet('USD'))}/entries?limit=20`);
}

async function listTransactions(state: SoakState): Promise<void> {
  await state.get('list transactions', `/v1/transactions?account=${path(state.randomWallet('USD'))}&limit=20`);
}

async function readTransaction(state: SoakState): Promise<void> {
  const sent = state.postings.pick();
  if (sent !== undefined) await state.get('read transaction', `/v1/transactions/${sent.transactionId}`);
}

/** Gateway charges posted in a batch, then the gateway's CSV of them (and one line the ledger lacks) uploaded. */
async function importStatement(state: SoakState): Promise<void> {
  const day = new Date().toISOString().slice(0, 10);
  const charges = Array.from({ length: LINES_PER_IMPORT }, () => ({
    reference: state.nextReference('ch'),
    amountMinor: randomInteger(1_000, 9_999),
  }));
  const transactions = charges.map(({ reference, amountMinor }) => ({
    externalRef: reference,
    entries: [
      { account: GATEWAY_ACCOUNT, direction: 'debit', amount: String(amountMinor), currency: 'USD' },
      { account: SALES_ACCOUNT, direction: 'credit', amount: String(amountMinor), currency: 'USD' },
    ],
  }));
  const posted = await state.post('import: charges batch', ['201'], '/v1/transactions/batch', { transactions });
  if (posted?.status !== 201) return;
  for (const result of body<{ results: { status: string; transaction?: { id: string; externalRef: string } }[] }>(
    posted,
  ).results) {
    state.recorder.item('import: charges batch item', ['created'], result.status);
    if (result.transaction) state.acknowledge(result.transaction);
  }
  const decimal = (minor: number) => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
  const lines = [...charges, { reference: state.nextReference('ch-unknown'), amountMinor: 1_234 }].map(
    ({ reference, amountMinor }) =>
      `txn_${reference},${day} 10:00:00,${day} 00:00:00,` +
      `usd,${decimal(amountMinor)},0.00,${decimal(amountMinor)},charge,${reference},,soak ${reference}`,
  );
  const content = [
    'id,created,available_on,currency,gross,fee,net,reporting_category,source_id,payout_id,description',
    ...lines,
    '',
  ].join('\n');
  const bearer = state.world.keys.finance;
  // Uploads in progress are capped per key (LEDGER_UPLOADS_PER_KEY_MAX) and the soak's clients share one
  // finance key: a 429 is the cap doing its work, and its charges stay unmatched until a later upload.
  await state.call('import (CSV upload)', ['201', '429 RATE_LIMITED'], {
    path: '/v1/imports',
    bearer,
    idempotencyKey: randomUUID(),
    fields: { source: GATEWAY_SOURCE },
    file: { field: 'file', name: 'gateway.csv', content },
  });
}

/** One start at a time from the soak, queued for the worker; its schedule races it (409 while one is queued, runs). */
async function reconcile(state: SoakState): Promise<void> {
  if (state.reconcileInFlight) return readAccount(state);
  state.reconcileInFlight = true;
  try {
    await state.post(
      'reconciliation run',
      ['202', '409 RECONCILIATION_IN_PROGRESS'],
      '/v1/reconciliation/runs',
      {},
      state.world.keys.finance,
    );
  } finally {
    state.reconcileInFlight = false;
  }
}

/** The mix, by weight (out of their sum). */
export const SOAK_OPERATIONS: readonly { weight: number; run: (state: SoakState) => Promise<void> }[] = [
  { weight: 30, run: postTransfer },
  { weight: 2, run: overdraw },
  { weight: 4, run: retryPosting },
  { weight: 5, run: postBatch },
  { weight: 7, run: placeHold },
  { weight: 6, run: resolveHold },
  { weight: 2, run: raceOnHold },
  { weight: 4, run: (state) => reverse(state, false) },
  { weight: 1, run: (state) => reverse(state, true) },
  { weight: 6, run: readAccount },
  { weight: 5, run: readBalanceAsOf },
  { weight: 5, run: readEntries },
  { weight: 5, run: listTransactions },
  { weight: 4, run: readTransaction },
  { weight: 2, run: importStatement },
  { weight: 1, run: reconcile },
];

export function pickOperation(): (state: SoakState) => Promise<void> {
  const total = SOAK_OPERATIONS.reduce((sum, operation) => sum + operation.weight, 0);
  let ticket = Math.random() * total;
  for (const operation of SOAK_OPERATIONS) {
    ticket -= operation.weight;
    if (ticket < 0) return operation.run;
  }
  return SOAK_OPERATIONS[0]!.run;
}
