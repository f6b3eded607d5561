import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, type Principal } from '@ledger/auth';
import {
  MATCHING_RULES_MAX,
  MATCH_WINDOW_DAYS_MAX,
  MatchingRulesUseCases,
  matchingRule,
  percentToBasisPoints,
} from '@ledger/reconciliation';
import { z } from 'zod';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { Endpoint } from '../openapi/endpoint';
import { matchingRulesView } from '../openapi/views/reconciliation.views';

const referenceName = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, 'a name of letters, digits, "_", "." or "-" (at most 64)');

const toleranceFields = {
  source: z.string().min(1).max(100).optional(),
  /** Minor units two amounts may differ by. */
  toleranceAmount: z
    .string()
    .regex(/^(0|[1-9]\d{0,12})$/, 'a whole number of minor units')
    .default('0'),
  /** Percentage of the statement amount two amounts may differ by ("0.5"); the larger of the two tolerances applies. */
  tolerancePercent: z
    .string()
    .regex(/^\d{1,3}(\.\d{1,2})?$/, 'a percentage with at most two decimals')
    .default('0'),
};

const ruleSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('reference'),
    ...toleranceFields,
    windowDays: z.number().int().min(0).max(MATCH_WINDOW_DAYS_MAX).default(0),
  }),
  z.strictObject({
    type: z.literal('group'),
    ...toleranceFields,
    lineReference: referenceName,
    metadataKey: referenceName,
  }),
  z.strictObject({
    type: z.literal('amount_date'),
    ...toleranceFields,
    windowDays: z.number().int().min(0).max(MATCH_WINDOW_DAYS_MAX),
  }),
  z.strictObject({ type: z.literal('reversal'), source: toleranceFields.source }),
]);

const rulesSchema = z.strictObject({ rules: z.array(ruleSchema).max(MATCHING_RULES_MAX) });

@ApiTags('reconciliation')
@Controller('v1/matching-rules')
export class MatchingRulesController {
  constructor(private readonly rules: MatchingRulesUseCases) {}

  /** The ordered rules the reconciler matches statements with (the built-in ones until the tenant sets its own). */
  @Get()
  @Endpoint({
    operationId: 'getMatchingRules',
    summary: 'Get the matching rules',
    description:
      'The ordered rules the reconciler matches statements with (the built-in ones until the tenant sets its own).',
    access: ['finance', 'auditor', 'admin'],
    answer: { status: 200, description: 'The rules in order.', schema: matchingRulesView },
  })
  list(@CurrentPrincipal() principal: Principal) {
    return this.rules.get(principal.tenantId);
  }

  /** Replaces the whole ordered list; an empty list restores the built-in rules. The next run uses them. */
  @Put()
  @Audited('matching_rules.replace')
  @Endpoint({
    operationId: 'replaceMatchingRules',
    summary: 'Replace the matching rules',
    description: 'Replaces the whole ordered list; an empty list restores the built-in rules. The next run uses them.',
    access: ['finance', 'admin'],
    body: rulesSchema,
    bodyExample: { rules: [{ type: 'reference' }, { type: 'amount_date', windowDays: 3, tolerancePercent: '0.5' }] },
    answer: { status: 200, description: 'The rules now in force.', schema: matchingRulesView },
  })
  replace(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(rulesSchema)) body: z.output<typeof rulesSchema>,
  ) {
    const rules = body.rules.map((rule) =>
      matchingRule({
        type: rule.type,
        source: rule.source ?? null,
        toleranceMinor: 'toleranceAmount' in rule ? BigInt(rule.toleranceAmount) : 0n,
        toleranceBps: 'tolerancePercent' in rule ? percentToBasisPoints(rule.tolerancePercent) : 0,
        windowDays: 'windowDays' in rule ? rule.windowDays : 0,
        lineReference: rule.type === 'group' ? rule.lineReference : null,
        metadataKey: rule.type === 'group' ? rule.metadataKey : null,
      }),
    );
    return this.rules.replace({ tenantId: principal.tenantId, actor: principal.actor, rules });
  }
}
