import { describe, expect, it } from 'vitest';
import { FaultsError, faultNames, faultsSchema, NO_FAULTS, parseFaults } from './faults';

describe('parseFaults', () => {
  it('reads every fault and the latency', () => {
    expect(
      parseFaults('timeout_after_execute=0.2,error_before_execute=0.1,reject=0.05,return=0.02,latency_ms=30'),
    ).toEqual({ timeoutAfterExecute: 0.2, errorBeforeExecute: 0.1, reject: 0.05, return: 0.02, latencyMs: 30 });
  });

  it('writes them back under the names it reads', () => {
    const faults = parseFaults('reject=0.25,latency_ms=7');
    expect(faultsSchema.parse(faultNames(faults))).toEqual(faults);
  });

  it('leaves out what is not named, and reads empty text as no faults', () => {
    expect(parseFaults(' reject = 1 ')).toEqual({ ...NO_FAULTS, reject: 1 });
    expect(parseFaults('')).toEqual(NO_FAULTS);
    expect(parseFaults('  ')).toEqual(NO_FAULTS);
  });

  it.each([
    ['an unknown name', 'rejects=0.1'],
    ['a repeated name', 'reject=0.1,reject=0.2'],
    ['a probability above 1', 'reject=1.5'],
    ['a negative value', 'reject=-0.1'],
    ['a fractional latency', 'latency_ms=2.5'],
    ['a latency above the maximum', 'latency_ms=600000'],
    ['a value that is not a number', 'reject=often'],
    ['a part without a value', 'reject'],
    ['an empty part', 'reject=0.1,'],
    ['an exponent', 'reject=1e-1'],
  ])('refuses %s', (_case, text) => {
    expect(() => parseFaults(text)).toThrow(FaultsError);
  });
});
