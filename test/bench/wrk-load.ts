// The API driven by wrk, a load generator written in C, beside the bench's own Node client. Every client
// shares the machine's two cores with the API and PostgreSQL, so what it spends per request is taken from
// them: the Node client 0.11-0.19 ms of CPU per single transfer, pgbench 0.06-0.20 (its plain SQL script
// makes five round trips a transfer, pgledger's one), wrk 0.04-0.06. Driven by wrk, the API meets the
// leanest client of the three. The requests are the Node client's: the same bodies, a fresh Idempotency-Key
// each, over keep-alive sockets, closed loop. wrk runs for a duration, not a count.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiFixture } from './bench-setup';
import type { LoadHooks, LoadResult } from './load-loop';
import { runLoadGenerator } from './load-generator-process';
import {
  CURRENCY,
  TRANSFERS_PER_REQUEST,
  TRANSFER_AMOUNT_MAX_MINOR,
  type WorkloadName,
  idempotencyKeyPrefix,
} from './workloads';

const RESULT_MARKER = 'BENCH_WRK ';
const LATENCIES_MARKER = 'BENCH_WRK_LATENCIES ';
const REQUEST_TIMEOUT_S = 30;

// Each of wrk's threads runs this in a Lua state of its own: it builds every request (the Node client's
// bodies, drawn the same way as nextTransfer in workloads.ts) and counts what the answers created; done()
// sums the threads and prints one line of JSON, then every latency seen (microseconds) with its count.
const SCRIPT = String.raw`
local wallets = {}
for line in io.lines(os.getenv("BENCH_WRK_WALLETS")) do wallets[#wallets + 1] = line end
local hot = os.getenv("BENCH_WRK_HOT")
local batch = tonumber(os.getenv("BENCH_WRK_BATCH"))
local path = os.getenv("BENCH_WRK_PATH")
local prefix = os.getenv("BENCH_WRK_KEY_PREFIX")
local amountMax = tonumber(os.getenv("BENCH_WRK_AMOUNT_MAX"))
local currency = os.getenv("BENCH_WRK_CURRENCY")
local headers = {
  ["Content-Type"] = "application/json",
  ["Accept"] = "application/json",
  ["Authorization"] = "Bearer " .. os.getenv("BENCH_WRK_BEARER"),
}
local threads = {}

function setup(thread)
  threads[#threads + 1] = thread
  thread:set("id", #threads)
end

function init(args)
  math.randomseed(os.time() * 1000 + id)
  sequence = 0
  created = 0
  failed = 0
  statuses = ""
end

local function transfer()
  local count = #wallets
  local from = math.random(count)
  local to
  if hot ~= "" then
    to = hot
  else
    to = wallets[(from + math.random(count - 1) - 1) % count + 1]
  end
  local amount = tostring(math.random(amountMax))
  return '{"entries":[{"account":"' .. wallets[from] .. '","direction":"debit","amount":"' .. amount ..
    '","currency":"' .. currency .. '"},{"account":"' .. to .. '","direction":"credit","amount":"' .. amount ..
    '","currency":"' .. currency .. '"}]}'
end

function request()
  sequence = sequence + 1
  headers["Idempotency-Key"] = prefix .. "-" .. id .. "-" .. sequence
  local body
  if batch == 1 then
    body = transfer()
  else
    local items = {}
    for index = 1, batch do items[index] = transfer() end
    body = '{"transactions":[' .. table.concat(items, ",") .. ']}'
  end
  return wrk.format("POST", path, headers, body)
end

function response(status, headers, body)
  if status ~= 201 then
    failed = failed + batch
    statuses = statuses .. status .. " "
  elseif batch == 1 then
    created = created + 1
  else
    local _, items = string.gsub(body, '"status":"created"', "")
    created = created + items
    failed = failed + batch - items
  end
end

function done(summary, latency, requests)
  local created, failed, statuses = 0, 0, ""
  for _, thread in ipairs(threads) do
    created = created + thread:get("created")
    failed = failed + thread:get("failed")
    statuses = statuses .. thread:get("statuses")
  end
  local errors = summary.errors
  io.write(string.format(
    '${RESULT_MARKER}{"requests":%d,"durationUs":%d,"created":%d,"failed":%d,"statuses":"%s",' ..
      '"connect":%d,"read":%d,"write":%d,"timeout":%d}\n',
    summary.requests, summary.duration, created, failed, statuses,
    errors.connect, errors.read, errors.write, errors.timeout))
  local buckets = {}
  for index = 1, #latency do
    local value, count = latency(index)
    buckets[#buckets + 1] = value .. ":" .. count
  end
  io.write("${LATENCIES_MARKER}" .. table.concat(buckets, " ") .. "\n")
end
`;

export interface WrkDriver {
  directory: string;
  script: string;
  /** The API tenant's wallet ids, one per line, read by every thread. */
  walletsFile: string;
}

/** Writes the script and the wallets' file; undefined (with a line logged) when wrk is not installed. */
export async function setUpWrk(fixture: ApiFixture, log: (line: string) => void): Promise<WrkDriver | undefined> {
  if (spawnSync('wrk', ['--version']).error !== undefined) {
    log('wrk is not installed: the rows of the API driven by wrk are skipped');
    return undefined;
  }
  const directory = await mkdtemp(join(tmpdir(), 'ledger-bench-wrk-'));
  const driver = { directory, script: join(directory, 'post.lua'), walletsFile: join(directory, 'wallets.txt') };
  await writeFile(driver.script, SCRIPT);
  await writeFile(driver.walletsFile, `${fixture.walletIds.join('\n')}\n`);
  return driver;
}

export async function tearDownWrk(driver: WrkDriver | undefined): Promise<void> {
  if (driver !== undefined) await rm(driver.directory, { recursive: true, force: true });
}

interface WrkSummary {
  requests: number;
  durationUs: number;
  created: number;
  failed: number;
  statuses: string;
  connect: number;
  read: number;
  write: number;
  timeout: number;
}

/** Failed transfers by label: refused requests by status, refused items of accepted batches, socket errors. */
function errorsOf(summary: WrkSummary, transfersPerRequest: number): Record<string, number> {
  const errors: Record<string, number> = {};
  let refusedRequests = 0;
  for (const status of summary.statuses.split(' ')) {
    if (status === '') continue;
    errors[`HTTP ${status}`] = (errors[`HTTP ${status}`] ?? 0) + transfersPerRequest;
    refusedRequests++;
  }
  const refusedItems = summary.failed - refusedRequests * transfersPerRequest;
  if (refusedItems > 0) errors['item refused'] = refusedItems;
  // wrk's socket errors are per request: each lost the transfers it carried.
  for (const kind of ['connect', 'read', 'write', 'timeout'] as const)
    if (summary[kind] > 0) errors[`socket ${kind} error`] = summary[kind] * transfersPerRequest;
  return errors;
}

function latenciesOf(line: string): Float64Array {
  const latencies: number[] = [];
  for (const pair of line.split(' ')) {
    const [microseconds, count] = pair.split(':').map(Number);
    if (microseconds === undefined || count === undefined || !Number.isFinite(microseconds)) continue;
    for (let index = 0; index < count; index++) latencies.push(microseconds / 1000);
  }
  return Float64Array.from(latencies);
}

export interface WrkLoadOptions {
  driver: WrkDriver;
  baseUrl: string;
  fixture: ApiFixture;
  workload: WorkloadName;
  concurrency: number;
  seconds: number;
  hooks: LoadHooks;
}

/**
 * One closed-loop run of `seconds` through wrk (two threads, like pgbench's -j 2). Requests still in
 * flight when wrk stops are not counted, though the API may post them: the books check covers them.
 */
export async function runWrkLoad(options: WrkLoadOptions): Promise<{ result: LoadResult; clientCpuMs: number }> {
  const batch = TRANSFERS_PER_REQUEST[options.workload];
  const env = {
    ...process.env,
    BENCH_WRK_WALLETS: options.driver.walletsFile,
    BENCH_WRK_HOT: options.workload === 'hot' ? options.fixture.hotAccountId : '',
    BENCH_WRK_BATCH: String(batch),
    BENCH_WRK_PATH: batch === 1 ? '/v1/transactions' : '/v1/transactions/batch',
    BENCH_WRK_KEY_PREFIX: idempotencyKeyPrefix(`wrk-${options.workload}-${options.concurrency}`),
    BENCH_WRK_AMOUNT_MAX: String(TRANSFER_AMOUNT_MAX_MINOR),
    BENCH_WRK_CURRENCY: CURRENCY,
    BENCH_WRK_BEARER: options.fixture.posterKey,
  };
  const args = [
    ...['-t', String(Math.min(2, options.concurrency)), '-c', String(options.concurrency)],
    ...['-d', `${options.seconds}s`, '--timeout', `${REQUEST_TIMEOUT_S}s`, '-s', options.driver.script],
    options.baseUrl,
  ];
  options.hooks.onLoadStart();
  // wrk stops itself after its duration; the kill is for a wrk that hangs.
  const run = await runLoadGenerator('wrk', args, (options.seconds + REQUEST_TIMEOUT_S + 30) * 1000, env).finally(() =>
    options.hooks.onLoadEnd(),
  );
  const lines = run.stdout.split('\n');
  const resultLine = lines.find((line) => line.startsWith(RESULT_MARKER));
  if (resultLine === undefined) throw new Error(`wrk printed no result: ${run.stdout.slice(-2000)}`);
  const summary = JSON.parse(resultLine.slice(RESULT_MARKER.length)) as WrkSummary;
  const latencyLine = lines.find((line) => line.startsWith(LATENCIES_MARKER)) ?? LATENCIES_MARKER;
  return {
    result: {
      requestsAttempted: summary.requests,
      transfersCreated: summary.created,
      elapsedMs: summary.durationUs / 1000,
      timedOut: false,
      latenciesMs: latenciesOf(latencyLine.slice(LATENCIES_MARKER.length)),
      errors: errorsOf(summary, batch),
    },
    clientCpuMs: run.clientCpuMs,
  };
}
