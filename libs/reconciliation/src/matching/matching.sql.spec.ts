import { T_HAS_METADATA } from '@ledger/ledger';
import { describe, expect, it } from 'vitest';
import { matchingRule } from '../rules/matching-rule';
import { MATCH_BY_REFERENCE, MATCH_GROUPS } from './matching.sql';
import { ruleStatement } from './matching.repository';
import { AMBIGUOUS_LINES, GROUP_MISMATCHES } from './unexplained.sql';

// The names a matching statement may take: the source's scope, the rule's values, the run and a limit.
const KNOWN = [
  'tenantId',
  'sourceId',
  'accountId',
  'normalBalance',
  'toleranceMinor',
  'toleranceBps',
  'windowDays',
  'lineReference',
  'metadataKey',
  'runId',
  'limit',
];

describe('rule values are parameters, never text', () => {
  const rule = matchingRule({
    type: 'group',
    lineReference: "payoutId'; DROP TABLE entries; --",
    metadataKey: 'payoutId',
    toleranceMinor: 5n,
    toleranceBps: 150,
  });

  it("names each of the rule's values once, as a parameter of its statement", () => {
    const names = ruleStatement(rule).parameterNames;
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(['toleranceMinor', 'toleranceBps', 'lineReference', 'metadataKey']));
    expect(ruleStatement(rule).text).toMatch(/\$\d+::int4/);
  });

  it('leaves no rule value in any statement text', () => {
    const statements = [
      ruleStatement(rule),
      ruleStatement(matchingRule({ type: 'reference', toleranceMinor: 12345n, windowDays: 7 })),
      ruleStatement(matchingRule({ type: 'amount_date', windowDays: 29, toleranceBps: 4321 })),
      GROUP_MISMATCHES.tolerant,
      AMBIGUOUS_LINES.tolerant,
    ];
    for (const statement of statements) {
      expect(statement.text).not.toMatch(/DROP TABLE|12345|4321|\b29\b|(?<!:):[a-z]/);
    }
  });

  it("takes no parameter beyond the source's scope, the rule's values, the run and a limit", () => {
    const shapes = [
      ...Object.values(MATCH_BY_REFERENCE).flatMap((byWindow) => Object.values(byWindow)),
      ...Object.values(GROUP_MISMATCHES),
      ...Object.values(AMBIGUOUS_LINES),
      ruleStatement(rule),
      ruleStatement(matchingRule({ type: 'reversal' })),
    ];
    for (const statement of shapes) for (const name of statement.parameterNames) expect(KNOWN).toContain(name);
  });
});

describe('the metadata index', () => {
  it("names the index's predicate beside every containment test on a transaction's metadata", () => {
    // Without it, the index (which holds only transactions with metadata) cannot serve the test.
    for (const { text } of [...Object.values(MATCH_GROUPS), ...Object.values(GROUP_MISMATCHES)]) {
      const containments = text.split('t.metadata @>').length - 1;
      expect(containments).toBeGreaterThan(0);
      expect(text.split(T_HAS_METADATA).length - 1).toBe(containments);
    }
  });
});
