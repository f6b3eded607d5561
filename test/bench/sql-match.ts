import type pg from 'pg';

// The reconciliation baseline: one plain SQL join that matches each statement line of the source to
// the entry its reference names (the line's `sourceId` is a transaction's externalRef, on the source's
// account, same amount and currency) and inserts the match rows, in one transaction that is rolled back,
// so that the ledger's run that follows finds the same lines still open. It checks no invariant, does
// not leave out lines or entries matched before (there are none), writes no evidence, opens no
// ticket and records no run: the difference to RunReconciliationUseCase is what those cost.

const MATCH_BY_REFERENCE = `
INSERT INTO matches (tenant_id, id, group_id, statement_line_id, transaction_id, leg, rule)
SELECT $1, p.id, p.id, p.line_id, p.transaction_id, p.leg, 'reference'
  FROM (SELECT gen_random_uuid() AS id, l.id AS line_id, e.transaction_id, e.leg
          FROM statement_lines l
          JOIN transactions t ON t.tenant_id = l.tenant_id AND t.external_ref = l.refs ->> 'sourceId'
          JOIN entries e ON e.tenant_id = t.tenant_id AND e.transaction_id = t.id AND e.account_id = $3
         WHERE l.tenant_id = $1 AND l.source_id = $2
           AND e.currency = l.currency AND e.direction = 'debit' AND e.amount_minor = l.amount_minor) p`;

const SOURCE_AND_ACCOUNT = `SELECT id, account_id FROM statement_sources WHERE tenant_id = $1 AND name = $2`;

/** Answers the number of lines the join matched (none of its rows is kept). */
export async function matchBySql(pool: pg.Pool, tenantId: string, sourceName: string): Promise<number> {
  const client = await pool.connect();
  try {
    const source = (await client.query<{ id: string; account_id: string }>(SOURCE_AND_ACCOUNT, [tenantId, sourceName]))
      .rows[0];
    if (source === undefined) throw new Error(`no source ${sourceName}`);
    await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
    // A join of whole tables: hash joins, whatever the (fresh, unanalysed) tables' statistics suggest.
    await client.query('SET LOCAL enable_nestloop = off');
    const inserted = await client.query(MATCH_BY_REFERENCE, [tenantId, source.id, source.account_id]);
    return inserted.rowCount ?? 0;
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
}
