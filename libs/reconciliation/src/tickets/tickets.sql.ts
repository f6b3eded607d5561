import { sql } from '@ledger/db';
import type { DiscrepancyKind, Severity } from '../domain/finding';
import type { TicketStatus } from './ticket.views';

// Discrepancy tickets and their history, as a run syncs them: many at a time (a run opens, updates and
// resolves them in one statement each), as parallel arrays, one element per ticket.

export interface TicketRow {
  id: string;
  fingerprint: string;
  kind: DiscrepancyKind;
  severity: Severity;
  status: TicketStatus;
  owner: string;
  summary: string;
  amount_minor: bigint | null;
  currency: string | null;
  account_code: string | null;
  source: string | null;
  evidence: Record<string, unknown>;
  opened_at: Date;
  updated_at: Date;
  due_at: Date;
  resolved_at: Date | null;
  last_seen_run_id: string | null;
  version: number;
}

const TICKET_COLUMNS = `
id, fingerprint, kind, severity, status, owner, summary, amount_minor, currency, account_code, source, evidence,
opened_at, updated_at, due_at, resolved_at, last_seen_run_id, version`;

/**
 * Every ticket a run may change, locked until its sync commits, in id order (so that two lockers of
 * several tickets never wait for each other in a circle): every one its findings name, and up to
 * `openLimit` of its kinds still being worked (which it resolves when their cause is gone). A row a
 * person is changing is waited for and read as they committed it, so the run decides on the ticket as it
 * is, never on a copy.
 */
export const LOCK_FOR_SYNC = sql<
  { tenantId: string; fingerprints: readonly string[]; kinds: readonly string[]; openLimit: number },
  TicketRow
>(`
SELECT ${TICKET_COLUMNS} FROM discrepancies
 WHERE tenant_id = :tenantId
   AND id IN (SELECT id FROM discrepancies WHERE tenant_id = :tenantId AND fingerprint = ANY(:fingerprints::text[])
              UNION ALL
              (SELECT id FROM discrepancies
                WHERE tenant_id = :tenantId AND kind = ANY(:kinds::text[]) AND status IN ('open', 'acknowledged')
                LIMIT :openLimit))
   -- Checked again on a row a person changed meanwhile: one they ignored or resolved is no longer the run's.
   AND (fingerprint = ANY(:fingerprints::text[])
        OR (kind = ANY(:kinds::text[]) AND status IN ('open', 'acknowledged')))
 ORDER BY id
   FOR UPDATE`);

export const INSERT_TICKETS = sql<{
  tenantId: string;
  ids: string[];
  fingerprints: string[];
  kinds: string[];
  severities: string[];
  owners: string[];
  summaries: string[];
  amountsMinor: (bigint | null)[];
  currencies: (string | null)[];
  accountCodes: (string | null)[];
  sources: (string | null)[];
  /** JSON texts. */
  evidences: string[];
  openedAts: Date[];
  dueAts: Date[];
  lastSeenRunIds: (string | null)[];
}>(`
INSERT INTO discrepancies (tenant_id, id, fingerprint, kind, severity, status, owner, summary, amount_minor, currency,
                           account_code, source, evidence, opened_at, updated_at, due_at, last_seen_run_id)
SELECT :tenantId, t.id, t.fingerprint, t.kind, t.severity, 'open', t.owner, t.summary, t.amount_minor, t.currency,
       t.account_code, t.source, t.evidence::jsonb, t.opened_at, t.opened_at, t.due_at, t.last_seen_run_id
  FROM unnest(:ids::uuid[], :fingerprints::text[], :kinds::text[], :severities::text[], :owners::text[],
              :summaries::text[], :amountsMinor::int8[], :currencies::text[], :accountCodes::text[],
              :sources::text[], :evidences::text[], :openedAts::timestamptz[], :dueAts::timestamptz[],
              :lastSeenRunIds::uuid[])
       AS t(id, fingerprint, kind, severity, owner, summary, amount_minor, currency, account_code, source, evidence,
            opened_at, due_at, last_seen_run_id)`);

/**
 * What a run owns of each ticket (locked by LOCK_FOR_SYNC): its finding, the run that last saw it, and the
 * status a run decides (reopened, auto-resolved); never the owner, which is a person's. The version moves
 * only when something a person reads changes, not when a run merely saw the ticket again.
 */
export const UPDATE_TICKETS = sql<{
  tenantId: string;
  ids: string[];
  statuses: string[];
  summaries: string[];
  amountsMinor: (bigint | null)[];
  currencies: (string | null)[];
  /** JSON texts. */
  evidences: string[];
  resolvedAts: (Date | null)[];
  lastSeenRunIds: (string | null)[];
  dueAts: Date[];
}>(`
UPDATE discrepancies d
   SET status = u.status, summary = u.summary, amount_minor = u.amount_minor, currency = u.currency,
       evidence = u.evidence::jsonb, updated_at = now(), resolved_at = u.resolved_at,
       last_seen_run_id = coalesce(u.last_seen_run_id, d.last_seen_run_id), due_at = u.due_at,
       version = d.version
         + CASE WHEN (d.status, d.summary, d.amount_minor, d.currency, d.evidence, d.resolved_at, d.due_at)
                     IS DISTINCT FROM
                     (u.status, u.summary, u.amount_minor, u.currency, u.evidence::jsonb, u.resolved_at, u.due_at)
                THEN 1 ELSE 0 END
  FROM unnest(:ids::uuid[], :statuses::text[], :summaries::text[], :amountsMinor::int8[],
              :currencies::text[], :evidences::text[], :resolvedAts::timestamptz[], :lastSeenRunIds::uuid[],
              :dueAts::timestamptz[])
       AS u(id, status, summary, amount_minor, currency, evidence, resolved_at, last_seen_run_id, due_at)
 WHERE d.tenant_id = :tenantId AND d.id = u.id`);

/**
 * People's changes to tickets they locked (LOCK_TICKET, LOCK_TICKETS): owner, status and due date, each
 * one version on; answers each ticket's new version.
 */
export const WORK_TICKETS = sql<
  {
    tenantId: string;
    ids: string[];
    owners: string[];
    statuses: string[];
    resolvedAts: (Date | null)[];
    dueAts: Date[];
  },
  { id: string; version: number; updated_at: Date }
>(`
UPDATE discrepancies d
   SET owner = w.owner, status = w.status, resolved_at = w.resolved_at, due_at = w.due_at, updated_at = now(),
       version = d.version + 1
  FROM unnest(:ids::uuid[], :owners::text[], :statuses::text[], :resolvedAts::timestamptz[], :dueAts::timestamptz[])
       AS w(id, owner, status, resolved_at, due_at)
 WHERE d.tenant_id = :tenantId AND d.id = w.id
RETURNING d.id, d.version, d.updated_at`);

/** Each ticket's events are numbered on from its last one, in the order given. */
export const APPEND_EVENTS = sql<{
  tenantId: string;
  ticketIds: string[];
  actors: string[];
  actions: string[];
  notes: (string | null)[];
  /** JSON texts. */
  changes: string[];
}>(`
INSERT INTO discrepancy_events (tenant_id, discrepancy_id, seq, actor, action, note, changes)
SELECT :tenantId, e.discrepancy_id,
       coalesce((SELECT max(d.seq) FROM discrepancy_events d
                  WHERE d.tenant_id = :tenantId AND d.discrepancy_id = e.discrepancy_id), 0)
         + row_number() OVER (PARTITION BY e.discrepancy_id ORDER BY e.position),
       e.actor, e.action, e.note, e.changes::jsonb
  FROM unnest(:ticketIds::uuid[], :actors::text[], :actions::text[], :notes::text[], :changes::text[])
       WITH ORDINALITY AS e(discrepancy_id, actor, action, note, changes, position)`);

/** A ticket a person is changing, locked until the change commits (Prisma Client cannot lock a row). */
export const LOCK_TICKET = sql<{ tenantId: string; id: string }, TicketRow>(`
SELECT ${TICKET_COLUMNS} FROM discrepancies WHERE tenant_id = :tenantId AND id = :id FOR UPDATE`);

/**
 * Tickets a person changes together, locked until the change commits, in id order: the order a run's sync
 * locks in (LOCK_FOR_SYNC), so that neither ever waits for the other in a circle. Ids of another tenant
 * match nothing.
 */
export const LOCK_TICKETS = sql<{ tenantId: string; ids: readonly string[] }, TicketRow>(`
SELECT ${TICKET_COLUMNS} FROM discrepancies
 WHERE tenant_id = :tenantId AND id = ANY(:ids::uuid[])
 ORDER BY id
   FOR UPDATE`);

/**
 * Tickets per status and how many of them are overdue: one pass over the (tenant_id, status, due_at)
 * index, where Prisma Client would need a grouped count and a second count for the overdue ones.
 */
export const COUNT_TICKETS = sql<{ tenantId: string }, { status: TicketStatus; tickets: number; overdue: number }>(`
SELECT status,
       count(*)::int AS tickets,
       count(*) FILTER (WHERE due_at < now() AND status IN ('open', 'acknowledged'))::int AS overdue
  FROM discrepancies
 WHERE tenant_id = :tenantId
 GROUP BY status`);
