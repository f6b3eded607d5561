import { z } from 'zod';

/** Per request, the chance of each fault (0..1), and a delay added to every answer. */
export interface Faults {
  timeoutAfterExecute: number;
  errorBeforeExecute: number;
  reject: number;
  return: number;
  latencyMs: number;
}

export const NO_FAULTS: Faults = Object.freeze({
  timeoutAfterExecute: 0,
  errorBeforeExecute: 0,
  reject: 0,
  return: 0,
  latencyMs: 0,
});

/** A simulated latency above this is a typing mistake, not a slow provider. */
export const LATENCY_MS_MAX = 60_000;
const FAULTS_TEXT_CHARS_MAX = 1000;

const probability = z.number().min(0).max(1);
const latency = z.number().int().min(0).max(LATENCY_MS_MAX);

/** The names as PROVIDER_SIM_FAULTS and PUT /__sim/faults write them. */
export const faultsSchema = z
  .strictObject({
    timeout_after_execute: probability.optional(),
    error_before_execute: probability.optional(),
    reject: probability.optional(),
    return: probability.optional(),
    latency_ms: latency.optional(),
  })
  .transform(
    (names): Faults => ({
      timeoutAfterExecute: names.timeout_after_execute ?? 0,
      errorBeforeExecute: names.error_before_execute ?? 0,
      reject: names.reject ?? 0,
      return: names.return ?? 0,
      latencyMs: names.latency_ms ?? 0,
    }),
  );

/** The faults under the names PUT /__sim/faults takes, so that what GET answers can be PUT back. */
export function faultNames(faults: Faults): Record<string, number> {
  return {
    timeout_after_execute: faults.timeoutAfterExecute,
    error_before_execute: faults.errorBeforeExecute,
    reject: faults.reject,
    return: faults.return,
    latency_ms: faults.latencyMs,
  };
}

export class FaultsError extends Error {
  override readonly name = 'FaultsError';
}

/**
 * Reads `"timeout_after_execute=0.2,error_before_execute=0.1,reject=0.05,return=0.02,latency_ms=30"`.
 * Strict: an unknown name, a repeated name, a value that is not a plain number or out of range is an error,
 * so that a misspelt fault never silently means "no fault". Empty text is no faults.
 */
export function parseFaults(text: string): Faults {
  if (text.length > FAULTS_TEXT_CHARS_MAX) throw new FaultsError(`faults longer than ${FAULTS_TEXT_CHARS_MAX} chars`);
  if (text.trim() === '') return NO_FAULTS;
  const names: Record<string, number> = {};
  for (const part of text.split(',')) {
    const match = /^\s*([a-z_]+)\s*=\s*([0-9]+(?:\.[0-9]+)?)\s*$/.exec(part);
    if (match === null) throw new FaultsError(`fault ${JSON.stringify(part)} is not name=number`);
    const [, name, value] = match;
    if (Object.hasOwn(names, name!)) throw new FaultsError(`fault ${name} is given twice`);
    names[name!] = Number(value);
  }
  const parsed = faultsSchema.safeParse(names);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) =>
      issue.path.length === 0 ? issue.message : `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new FaultsError(`faults ${JSON.stringify(text)}: ${issues.join('; ')}`);
  }
  return parsed.data;
}
