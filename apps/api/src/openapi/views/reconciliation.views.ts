import type {
  AdjustDiscrepancyUseCase,
  CountDiscrepanciesUseCase,
  CreateOwnerRouteUseCase,
  GetDiscrepancyUseCase,
  ListDiscrepanciesUseCase,
  ListRunsUseCase,
  ManageMatchesUseCase,
  MatchingRulesView,
  MatchView,
  RunView,
  SuggestCandidatesUseCase,
  TicketView,
} from '@ledger/reconciliation';
import { DISCREPANCY_KINDS } from '@ledger/reconciliation';
import { z } from 'zod';
import { type Assert, type Same, type Widened, component, pageOf } from '../components';
import { actor, amount, currency, day, id, instant, side, signedAmount } from './fields';
import { transactionView } from './ledger.views';

const ticketStatus = z.enum(['open', 'acknowledged', 'resolved', 'ignored']);

export const runView = component(
  'ReconciliationRun',
  z
    .strictObject({
      id,
      trigger: z.enum(['schedule', 'api', 'cli']),
      actor,
      status: z.enum(['queued', 'running', 'completed', 'failed']).meta({
        description: 'queued (waiting for a worker), running, then completed or failed.',
      }),
      queuedAt: instant,
      startedAt: instant.nullable().meta({ description: 'Null while queued.' }),
      finishedAt: instant.nullable(),
      durationMs: z.number().int().min(0).nullable().meta({ description: 'From start to finish.' }),
      progress: z
        .strictObject({
          phase: z.enum(['queued', 'checks', 'matching', 'tickets', 'finished']),
          sourcesDone: z.number().int().min(0),
          sourcesTotal: z.number().int().min(0).nullable(),
          linesMatched: z.number().int().min(0),
        })
        .meta({
          description:
            'Where the run is: its phase, statement sources matched of all, lines matched so far. A failed run ' +
            'keeps the phase it failed in.',
        }),
      stats: z.record(z.string(), z.unknown()).meta({
        description: 'Counts of the run: checks, lines matched, tickets opened, updated and resolved.',
      }),
      error: z.string().nullable(),
    })
    .meta({ description: 'A reconciliation run: the invariant checks and statement matching, and its tickets.' }),
);

const ticketFields = {
  id,
  fingerprint: z.string().meta({ description: 'What makes the finding the same one again on the next run.' }),
  kind: z.enum(DISCREPANCY_KINDS),
  severity: z.enum(['critical', 'high', 'medium', 'low']),
  status: ticketStatus,
  owner: z.string(),
  summary: z.string(),
  amount: amount.nullable(),
  currency: currency.nullable(),
  accountCode: z.string().nullable(),
  source: z.string().nullable(),
  evidence: z.record(z.string(), z.unknown()).meta({ description: 'The statement and ledger sides of the finding.' }),
  openedAt: instant,
  updatedAt: instant,
  dueAt: instant,
  overdue: z.boolean().meta({ description: 'Past due and still being worked.' }),
  ageHours: z.number().int().min(0),
  resolvedAt: instant.nullable(),
  lastSeenRunId: id.nullable(),
  version: z
    .number()
    .int()
    .min(1)
    .meta({ description: 'Bumped by every change, by a person or a run; send it as `If-Match` to change the ticket.' }),
};

export const ticketView = component('Discrepancy', z.strictObject(ticketFields).meta({ description: 'A ticket.' }));

const ticketEventView = z.strictObject({
  seq: z.number().int().min(1),
  at: instant,
  actor,
  action: z.string(),
  note: z.string().nullable(),
  changes: z.record(z.string(), z.unknown()),
});

export const ticketWithHistoryView = component(
  'DiscrepancyWithHistory',
  z
    .strictObject({ ...ticketFields, history: z.array(ticketEventView) })
    .meta({ description: 'A ticket, oldest event first.' }),
);

export const ticketAdjustmentView = component(
  'DiscrepancyAdjustment',
  z.strictObject({ transaction: transactionView, ticket: ticketWithHistoryView }).meta({
    description: 'The transaction that booked the ticket, and the ticket resolved, naming it in its history.',
  }),
);

export const ticketCountsView = component(
  'DiscrepancyCounts',
  z.strictObject({
    byStatus: z.strictObject({ open: z.number(), acknowledged: z.number(), resolved: z.number(), ignored: z.number() }),
    overdue: z.number().int().min(0),
    total: z.number().int().min(0),
  }),
);

export const matchView = component(
  'Match',
  z
    .strictObject({
      id,
      rule: z.string().meta({ examples: ['reference', 'group', 'amount_date', 'reversal', 'manual'] }),
      evidence: z.record(z.string(), z.unknown()),
      statementLines: z.array(z.strictObject({ id, amount: signedAmount, currency, bookedOn: day })),
      entries: z.array(
        z.strictObject({ transactionId: id, leg: z.number().int().min(0), direction: side, amount, currency }),
      ),
      runId: id.nullable(),
      createdBy: z.string(),
      createdAt: instant,
      confirmedBy: z.string().nullable(),
      confirmedAt: instant.nullable(),
      undoneBy: z.string().nullable(),
      undoneAt: instant.nullable(),
      note: z.string().nullable().meta({ description: 'The latest note given; `history` keeps every one.' }),
      history: z
        .array(
          z.strictObject({
            at: instant,
            actor,
            action: z.enum(['created', 'confirmed', 'undone']),
            note: z.string().nullable(),
          }),
        )
        .meta({ description: 'Made by hand, confirmed, undone: oldest first, appended, never overwritten.' }),
    })
    .meta({ description: 'Statement lines matched to ledger entries, with the rule and evidence.' }),
);

export const matchList = component('MatchList', z.strictObject({ data: z.array(matchView), nextCursor: z.null() }));

export const matchingRulesView = component(
  'MatchingRules',
  z.strictObject({
    builtIn: z.boolean().meta({ description: 'True while the tenant has no rules of its own.' }),
    rules: z.array(
      z.strictObject({
        position: z.number().int().min(0),
        type: z.enum(['reference', 'group', 'amount_date', 'reversal']),
        source: z.string().nullable(),
        toleranceAmount: amount,
        tolerancePercent: z.string().meta({ examples: ['0.5'] }),
        windowDays: z.number().int().min(0),
        lineReference: z.string().nullable(),
        metadataKey: z.string().nullable(),
      }),
    ),
    updatedBy: z.string().nullable(),
    updatedAt: instant.nullable(),
  }),
);

const candidateReason = z.strictObject({
  code: z.enum(['same_amount', 'near_amount', 'reference', 'date_within_days', 'counterparty_token']),
  detail: z
    .string()
    .nullable()
    .meta({
      description: 'What the reason is about: the difference (minor units), the reference, the days, the word.',
      examples: ['INV-123'],
    }),
  text: z.string().meta({ description: 'The reason in words.' }),
});

export const candidateList = component(
  'DiscrepancyCandidates',
  z
    .strictObject({
      data: z.array(
        z.strictObject({
          transactionId: id,
          externalRef: z.string().nullable(),
          description: z.string().nullable(),
          effectiveAt: instant,
          entries: z.array(z.strictObject({ leg: z.number().int().min(0), direction: side, amount, currency })),
          statementLines: z.array(id).meta({ description: "The ticket's lines still unmatched, to match with it." }),
          amount: signedAmount.meta({ description: 'The entries signed like the lines (money in positive).' }),
          currency,
          score: z.number().int().min(0).max(100),
          reasons: z.array(candidateReason),
        }),
      ),
    })
    .meta({ description: 'Ledger transactions likely to explain the ticket, best first.' }),
);

export const ownerRouteView = component(
  'OwnerRoute',
  z.strictObject({
    id,
    priority: z.number().int().min(0),
    kind: z.enum(DISCREPANCY_KINDS).nullable(),
    source: z.string().nullable(),
    accountPrefix: z.string().nullable(),
    minAmount: amount.nullable(),
    owner: z.string(),
  }),
);

export const runPage = pageOf('ReconciliationRunPage', runView, 'Runs, newest first.');
export const ticketPage = pageOf('DiscrepancyPage', ticketView, 'Tickets, newest first.');

type Output<Schema extends z.ZodType> = z.output<Schema>;
type Answer<Method extends (...args: never[]) => unknown> = Awaited<ReturnType<Method>>;
type MatchOutput = Output<typeof matchView>;
export type ReconciliationViewsMatch = [
  Assert<Same<RunView, Output<typeof runView>>>,
  Assert<Same<TicketView, Output<typeof ticketView>>>,
  Assert<Same<Answer<GetDiscrepancyUseCase['execute']>, Output<typeof ticketWithHistoryView>>>,
  Assert<Same<Answer<CountDiscrepanciesUseCase['execute']>, Output<typeof ticketCountsView>>>,
  Assert<Same<Answer<SuggestCandidatesUseCase['execute']>, Output<typeof candidateList>>>,
  Assert<Same<Answer<AdjustDiscrepancyUseCase['execute']>, Output<typeof ticketAdjustmentView>>>,
  Assert<
    Same<MatchView, Omit<MatchOutput, 'entries'> & { entries: Widened<MatchOutput['entries'][number], 'direction'>[] }>
  >,
  Assert<Same<Answer<ManageMatchesUseCase['list']>, Omit<Output<typeof matchList>, 'data'> & { data: MatchView[] }>>,
  Assert<Same<MatchingRulesView, Output<typeof matchingRulesView>>>,
  Assert<Same<Answer<CreateOwnerRouteUseCase['execute']>, Output<typeof ownerRouteView>>>,
  Assert<Same<Answer<ListRunsUseCase['execute']>, Output<typeof runPage>>>,
  Assert<Same<Answer<ListDiscrepanciesUseCase['execute']>, Output<typeof ticketPage>>>,
];
