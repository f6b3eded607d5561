import { describe, expect, it } from 'vitest';
import { matchingRule } from '../rules/matching-rule';
import { bindRuleParameters, matchByAmountDate, matchByReference, matchGroups } from './matching.sql';

describe('rule values are parameters, never text', () => {
  const rule = matchingRule({
    type: 'group',
    lineReference: "payoutId'; DROP TABLE entries; --",
    metadataKey: 'payoutId',
    toleranceMinor: 5n,
    toleranceBps: 150,
  });

  it("numbers the placeholders after the statement's own, in order of first use, each once", () => {
    const [text, values] = bindRuleParameters('SELECT {{windowDays}}, {{toleranceMinor}}, {{windowDays}}', rule, 6);
    expect(text).toBe('SELECT $6::int4, $7::int8, $6::int4');
    expect(values).toEqual([0, '5']);
  });

  it('leaves no rule value in any statement text', () => {
    for (const statement of [
      matchGroups(rule),
      matchByReference(matchingRule({ type: 'reference', toleranceMinor: 12345n, windowDays: 7 })),
      matchByAmountDate(matchingRule({ type: 'amount_date', windowDays: 29, toleranceBps: 4321 })),
    ]) {
      const [text] = bindRuleParameters(statement, rule, 6);
      expect(text).not.toMatch(/DROP TABLE|12345|4321|\b29\b|\{\{/);
    }
  });

  it('refuses a placeholder it does not know', () => {
    expect(() => bindRuleParameters('SELECT {{nope}}', rule, 1)).toThrow(/unknown rule parameter/);
  });
});
