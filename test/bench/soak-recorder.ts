import { percentile } from './stats';
import type { HttpAnswer } from './http-client';
import { errorLabel } from './http-client';

// What the soak saw, per operation: every answer's latency and its outcome label ("201", "422
// INSUFFICIENT_FUNDS"). Each operation names the outcomes it expects; any other (a 5xx above all) is a
// failure of the run, as is any violated expectation a check reports (`violation`).

/** Latencies kept per operation, so a long soak's memory stays bounded (a uniform reservoir sample). */
const LATENCY_SAMPLES_MAX = 50_000;

class OperationStats {
  count = 0;
  readonly outcomes: Record<string, number> = {};
  private readonly latenciesMs: number[] = [];

  /** `latencyMs` NaN: an item inside an answer, counted without a latency of its own. */
  add(outcome: string, latencyMs: number): void {
    this.count++;
    this.outcomes[outcome] = (this.outcomes[outcome] ?? 0) + 1;
    if (Number.isNaN(latencyMs)) return;
    if (this.latenciesMs.length < LATENCY_SAMPLES_MAX) this.latenciesMs.push(latencyMs);
    else {
      const slot = Math.floor(Math.random() * this.count);
      if (slot < LATENCY_SAMPLES_MAX) this.latenciesMs[slot] = latencyMs;
    }
  }

  latency(fraction: number): number {
    return percentile(Float64Array.from(this.latenciesMs), fraction);
  }
}

export interface OperationSummary {
  operation: string;
  count: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  outcomes: Record<string, number>;
  unexpected: Record<string, number>;
}

export class SoakRecorder {
  private readonly operations = new Map<string, OperationStats>();
  private readonly unexpectedByOperation = new Map<string, Record<string, number>>();
  readonly violations: string[] = [];

  /** Records an answer; answers its outcome label. */
  answer(operation: string, expected: readonly string[], answer: HttpAnswer, latencyMs: number): string {
    const outcome = answer.status < 400 ? String(answer.status) : errorLabel(answer);
    this.count(operation, expected, outcome, latencyMs);
    return outcome;
  }

  /** A request that got no answer at all (connection refused, reset, timed out). */
  exception(operation: string, error: unknown, latencyMs: number): void {
    this.count(
      operation,
      [],
      `exception: ${error instanceof Error ? error.message.slice(0, 100) : String(error)}`,
      latencyMs,
    );
  }

  /** Outcomes inside an answer, e.g. a batch's items: counted under `operation`, without a latency. */
  item(operation: string, expected: readonly string[], outcome: string): void {
    this.count(operation, expected, outcome, Number.NaN);
  }

  violation(message: string): void {
    if (this.violations.length < 100) this.violations.push(message);
  }

  private count(operation: string, expected: readonly string[], outcome: string, latencyMs: number): void {
    let stats = this.operations.get(operation);
    if (stats === undefined) {
      stats = new OperationStats();
      this.operations.set(operation, stats);
    }
    stats.add(outcome, latencyMs);
    if (!expected.includes(outcome)) {
      const unexpected = this.unexpectedByOperation.get(operation) ?? {};
      unexpected[outcome] = (unexpected[outcome] ?? 0) + 1;
      this.unexpectedByOperation.set(operation, unexpected);
    }
  }

  summaries(elapsedSeconds: number): OperationSummary[] {
    return [...this.operations.entries()]
      .sort(([left], [right]) => left.localeCompare(right))
      .map(([operation, stats]) => ({
        operation,
        count: stats.count,
        perSecond: stats.count / elapsedSeconds,
        p50Ms: stats.latency(0.5),
        p99Ms: stats.latency(0.99),
        outcomes: stats.outcomes,
        unexpected: this.unexpectedByOperation.get(operation) ?? {},
      }));
  }
}
