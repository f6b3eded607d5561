import { describe, expect, it } from 'vitest';
import { DomainError } from '@ledger/errors';
import {
  DEFAULT_MATCHING_RULES,
  basisPointsToPercent,
  matchingRule,
  percentToBasisPoints,
  rulesForSource,
} from './matching-rule';

describe('matching rules', () => {
  it('reads a percentage exactly as basis points and writes it back', () => {
    for (const [percent, basisPoints] of [
      ['0', 0],
      ['1', 100],
      ['1.5', 150],
      ['0.05', 5],
      ['12.34', 1234],
      ['100', 10_000],
    ] as const) {
      expect(percentToBasisPoints(percent)).toBe(basisPoints);
      expect(basisPointsToPercent(basisPoints)).toBe(percent);
    }
  });

  it('refuses a percentage it cannot hold exactly, or over 100', () => {
    for (const percent of ['0.125', '100.01', '-1', '1e2', '', '1.'])
      expect(() => percentToBasisPoints(percent)).toThrow(DomainError);
  });

  it('a group rule names its line reference and metadata key; other rules do not', () => {
    expect(() => matchingRule({ type: 'group', lineReference: 'payoutId' })).toThrow(/metadata key/);
    expect(() => matchingRule({ type: 'reference', metadataKey: 'payoutId' })).toThrow(/only a group rule/);
    expect(matchingRule({ type: 'group', lineReference: 'payoutId', metadataKey: 'payoutId' })).toMatchObject({
      toleranceMinor: 0n,
      source: null,
    });
  });

  it('a source gets the rules for every source and its own, in order', () => {
    const bankOnly = matchingRule({ type: 'amount_date', source: 'bank', windowDays: 5 });
    const rules = [DEFAULT_MATCHING_RULES[0]!, bankOnly, DEFAULT_MATCHING_RULES[2]!];
    expect(rulesForSource(rules, 'bank')).toEqual(rules);
    expect(rulesForSource(rules, 'gateway')).toEqual([rules[0], rules[2]]);
  });
});
