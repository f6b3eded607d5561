import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, type Principal, Roles } from '@ledger/auth';
import {
  MATCHING_RULES_MAX,
  MATCH_WINDOW_DAYS_MAX,
  MatchingRulesUseCases,
  matchingRule,
  percentToBasisPoints,
} from '@ledger/reconciliation';
import { z } from 'zod';
import { requestSchema } from '../http/openapi';
import { ZodValidationPipe } from '../http/zod-validation.pipe';

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
@ApiBearerAuth()
@Controller('v1/matching-rules')
export class MatchingRulesController {
  constructor(private readonly rules: MatchingRulesUseCases) {}

  /** The ordered rules the reconciler matches statements with (the built-in ones until the tenant sets its own). */
  @Get()
  @Roles('finance', 'auditor', 'admin')
  list(@CurrentPrincipal() principal: Principal) {
    return this.rules.get(principal.tenantId);
  }

  /** Replaces the whole ordered list; an empty list restores the built-in rules. The next run uses them. */
  @Put()
  @Roles('finance', 'admin')
  @Audited('matching_rules.replace')
  @ApiBody({ schema: requestSchema(rulesSchema) })
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
    return this.rules.replace({ tenantId: principal.tenantId, actor: `api-key:${principal.keyId}`, rules });
  }
}
