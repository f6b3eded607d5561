import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { createApiKey, expectError, expectValidationError, sqlRows } from './support/ledger-fixtures';
import { type TicketTenant, getTicket, postTicket, tenantWithTickets } from './support/ticket-fixtures';

// The ticket lifecycle a team works: reopening, bulk changes, comments; each for finance only, each
// within its tenant.

let api: ApiHarness;
let team: TicketTenant;
let other: TicketTenant;
let actor: string;

beforeAll(async () => {
  api = await startApi();
  team = await tenantWithTickets(api, 'lifecycle team', 8);
  other = await tenantWithTickets(api, 'lifecycle other', 1);
  actor = (await api.request('GET', '/v1/api-keys/current', { key: team.key })).body.actor;
});
afterAll(async () => {
  await api?.close();
});

const ticket = (index: number) => team.tickets[index]!;
const patch = (id: string, body: unknown, ifMatch?: string) =>
  api.request('PATCH', `/v1/discrepancies/${id}`, {
    key: team.key,
    body,
    ...(ifMatch === undefined ? {} : { headers: { 'if-match': ifMatch } }),
  });

async function eventsOf(tenantId: string, id: string, action: string): Promise<number> {
  const [row] = await sqlRows<{ n: number }>(
    api,
    'SELECT count(*)::int AS n FROM discrepancy_events WHERE tenant_id = $1 AND discrepancy_id = $2 AND action = $3',
    [tenantId, id, action],
  );
  return row!.n;
}

describe('POST /v1/discrepancies/:id/reopen', () => {
  it('opens a resolved or ignored ticket again, with the note and the actor in its history', async () => {
    for (const [index, status] of [
      [0, 'resolved'],
      [1, 'ignored'],
    ] as const) {
      const closed = await patch(ticket(index).id, { status, note: 'the bank corrected it' });
      expect(closed.status, JSON.stringify(closed.body)).toBe(200);
      const reopened = await postTicket(api, team.key, `/v1/discrepancies/${ticket(index).id}/reopen`, {
        note: 'the correction was reversed',
      });
      expect(reopened.status, JSON.stringify(reopened.body)).toBe(200);
      expect(reopened.body).toMatchObject({ status: 'open', resolvedAt: null, version: closed.body.version + 1 });
      expect(new Date(reopened.body.dueAt).getTime()).toBeGreaterThan(Date.now());
      expect(reopened.body.history.at(-1)).toMatchObject({
        actor,
        action: 'reopened',
        note: 'the correction was reversed',
        changes: { status: { from: status, to: 'open' } },
      });
    }
  });

  it('refuses a ticket still being worked with 409 TICKET_NOT_CLOSED, and leaves it as it is', async () => {
    const open = await postTicket(api, team.key, `/v1/discrepancies/${ticket(2).id}/reopen`, { note: 'why' });
    expectError(open, 409, 'TICKET_NOT_CLOSED');
    expect(open.body.error.details).toEqual({ status: 'open' });
    expect((await patch(ticket(2).id, { status: 'acknowledged' })).status).toBe(200);
    expectError(
      await postTicket(api, team.key, `/v1/discrepancies/${ticket(2).id}/reopen`, { note: 'why' }),
      409,
      'TICKET_NOT_CLOSED',
    );
    expect(await eventsOf(team.tenant.tenantId, ticket(2).id, 'reopened')).toBe(0);
  });

  it('honours If-Match: a stale version is 412 STALE_VERSION, the current one reopens', async () => {
    const id = ticket(3).id;
    const closed = await patch(id, { status: 'resolved', note: 'fixed' });
    const stale = await postTicket(
      api,
      team.key,
      `/v1/discrepancies/${id}/reopen`,
      { note: 'again' },
      { ifMatch: String(closed.body.version - 1) },
    );
    expectError(stale, 412, 'STALE_VERSION');
    expect(stale.body.error.details).toEqual({ version: closed.body.version });
    expect((await getTicket(api, team.key, id)).status).toBe('resolved');
    expectValidationError(
      await postTicket(api, team.key, `/v1/discrepancies/${id}/reopen`, { note: 'again' }, { ifMatch: 'x' }),
      'If-Match',
    );
    const current = await postTicket(
      api,
      team.key,
      `/v1/discrepancies/${id}/reopen`,
      { note: 'again' },
      { ifMatch: `"${closed.body.version}"` },
    );
    expect(current.status, JSON.stringify(current.body)).toBe(200);
    expect(current.body.status).toBe('open');
  });

  it('replays a retried reopen instead of reopening twice; needs a note and an Idempotency-Key', async () => {
    const id = ticket(4).id;
    await patch(id, { status: 'ignored', note: 'noise' });
    const idempotencyKey = randomUUID();
    const first = await postTicket(
      api,
      team.key,
      `/v1/discrepancies/${id}/reopen`,
      { note: 'not noise' },
      {
        idempotencyKey,
      },
    );
    const again = await postTicket(
      api,
      team.key,
      `/v1/discrepancies/${id}/reopen`,
      { note: 'not noise' },
      {
        idempotencyKey,
      },
    );
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await eventsOf(team.tenant.tenantId, id, 'reopened')).toBe(1);
    expectValidationError(await postTicket(api, team.key, `/v1/discrepancies/${id}/reopen`, {}), 'note');
    const unkeyed = await api.request('POST', `/v1/discrepancies/${id}/reopen`, { key: team.key, body: { note: 'x' } });
    expectError(unkeyed, 400, 'IDEMPOTENCY_KEY_MISSING');
  });
});

describe('POST /v1/discrepancies/bulk', () => {
  it("changes each of the tenant's tickets, answers per id in the order sent, never touches another's", async () => {
    const ids = [ticket(7).id, other.tickets[0].id, ticket(5).id, randomUUID(), ticket(6).id];
    const idempotencyKey = randomUUID();
    const answer = await postTicket(
      api,
      team.key,
      '/v1/discrepancies/bulk',
      { ids, owner: 'payables' },
      {
        idempotencyKey,
      },
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.results.map((result: any) => [result.id, result.outcome])).toEqual([
      [ids[0], 'updated'],
      [ids[1], 'not_found'],
      [ids[2], 'updated'],
      [ids[3], 'not_found'],
      [ids[4], 'updated'],
    ]);
    expect(answer.body.results[0].ticket).toMatchObject({ id: ids[0], owner: 'payables', version: 2 });
    expect(answer.body.results[1]).toEqual({
      id: ids[1],
      outcome: 'not_found',
      error: { code: 'NOT_FOUND', message: expect.any(String) },
    });
    const untouched = await getTicket(api, other.key, other.tickets[0].id);
    expect(untouched).toMatchObject({ owner: other.tickets[0].owner, version: 1 });
    expect(untouched.history.map((event: any) => event.action)).toEqual(['opened']);
    for (const id of [ids[0], ids[2], ids[4]]) {
      expect((await getTicket(api, team.key, id)).history.at(-1)).toMatchObject({ actor, action: 'assigned' });
    }

    // The same request again: the first answer, and nothing assigned twice.
    const replayed = await postTicket(
      api,
      team.key,
      '/v1/discrepancies/bulk',
      { ids, owner: 'payables' },
      {
        idempotencyKey,
      },
    );
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(answer.body);
    expect(await eventsOf(team.tenant.tenantId, ids[0]!, 'assigned')).toBe(1);

    // Asked again with a new key: already so.
    const again = await postTicket(api, team.key, '/v1/discrepancies/bulk', { ids: [ids[0]], owner: 'payables' });
    expect(again.body.results).toEqual([
      { id: ids[0], outcome: 'unchanged', ticket: expect.objectContaining({ owner: 'payables', version: 2 }) },
    ]);
  });

  it('refuses per ticket a status it cannot reach, and changes the others in the same request', async () => {
    const closed = ticket(0).id;
    await patch(closed, { status: 'resolved', note: 'done' });
    const answer = await postTicket(api, team.key, '/v1/discrepancies/bulk', {
      ids: [closed, ticket(6).id],
      status: 'acknowledged',
      note: 'looking at these',
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.results[0]).toMatchObject({
      id: closed,
      outcome: 'refused',
      ticket: { status: 'resolved' },
      error: { code: 'VALIDATION_FAILED' },
    });
    expect(answer.body.results[1]).toMatchObject({ outcome: 'updated', ticket: { status: 'acknowledged' } });
    const history = (await getTicket(api, team.key, ticket(6).id)).history;
    expect(history.at(-1)).toMatchObject({ action: 'acknowledged', note: 'looking at these', actor });

    // A note alone is a history entry on each.
    const noted = await postTicket(api, team.key, '/v1/discrepancies/bulk', { ids: [ticket(6).id], note: 'called' });
    expect(noted.body.results[0].outcome).toBe('updated');
    expect((await getTicket(api, team.key, ticket(6).id)).history.at(-1)).toMatchObject({ action: 'noted' });
  });

  it('takes at most 500 ids, distinct UUIDs, and at least one change; resolving needs a note', async () => {
    const many = Array.from({ length: 501 }, () => randomUUID());
    expectValidationError(
      await postTicket(api, team.key, '/v1/discrepancies/bulk', { ids: many, owner: 'x' }),
      'ids.500',
    );
    const bounded = await postTicket(api, team.key, '/v1/discrepancies/bulk', { ids: many.slice(0, 500), owner: 'x' });
    expect(bounded.status, JSON.stringify(bounded.body).slice(0, 300)).toBe(200);
    expect(bounded.body.results).toHaveLength(500);
    expect(new Set(bounded.body.results.map((result: any) => result.outcome))).toEqual(new Set(['not_found']));

    const id = ticket(7).id;
    expectValidationError(
      await postTicket(api, team.key, '/v1/discrepancies/bulk', { ids: [id, id.toUpperCase()], owner: 'x' }),
      'ids.1',
    );
    expectValidationError(
      await postTicket(api, team.key, '/v1/discrepancies/bulk', { ids: ['nope'], owner: 'x' }),
      'ids.0',
    );
    expectValidationError(await postTicket(api, team.key, '/v1/discrepancies/bulk', { ids: [], owner: 'x' }), 'ids');
    expectValidationError(await postTicket(api, team.key, '/v1/discrepancies/bulk', { ids: [id] }), 'owner');
    expectValidationError(
      await postTicket(api, team.key, '/v1/discrepancies/bulk', { ids: [id], status: 'resolved' }),
      'note',
    );
    expect((await getTicket(api, team.key, id)).owner).toBe('payables');
    const unkeyed = await api.request('POST', '/v1/discrepancies/bulk', {
      key: team.key,
      body: { ids: [id], note: 'x' },
    });
    expectError(unkeyed, 400, 'IDEMPOTENCY_KEY_MISSING');
  });
});

describe('POST /v1/discrepancies/:id/comments', () => {
  it('appends a comment once, however often the request is retried', async () => {
    const id = ticket(5).id;
    const idempotencyKey = randomUUID();
    const send = () =>
      postTicket(api, team.key, `/v1/discrepancies/${id}/comments`, { note: 'asked the bank' }, { idempotencyKey });
    const [first, second] = await Promise.all([send(), send()]);
    const answers = [first, second].map((answer) => answer.status).sort();
    // Sent together, the second waits for the first or is told it is still running; never stored twice.
    expect([
      [201, 201],
      [201, 409],
    ]).toContainEqual(answers);
    const third = await send();
    expect(third.status).toBe(201);
    expect(third.headers.get('idempotent-replayed')).toBe('true');
    expect(third.body.history.at(-1)).toMatchObject({ actor, action: 'noted', note: 'asked the bank' });
    expect(await eventsOf(team.tenant.tenantId, id, 'noted')).toBe(1);
  });

  it('comments on a closed ticket too, and needs a note', async () => {
    const id = ticket(0).id;
    expect((await getTicket(api, team.key, id)).status).toBe('resolved');
    const answer = await postTicket(api, team.key, `/v1/discrepancies/${id}/comments`, { note: 'for the record' });
    expect(answer.status).toBe(201);
    expect(answer.body.status).toBe('resolved');
    expectValidationError(await postTicket(api, team.key, `/v1/discrepancies/${id}/comments`, { note: '' }), 'note');
    expectValidationError(await postTicket(api, team.key, `/v1/discrepancies/${id}/comments`, { text: 'x' }), 'text');
  });

  it('leaves PATCH with a note alone working as before (a noted entry)', async () => {
    const noted = await patch(ticket(5).id, { note: 'still waiting' });
    expect(noted.status).toBe(200);
    expect(noted.body.history.at(-1)).toMatchObject({ action: 'noted', note: 'still waiting' });
  });
});

describe('roles, tenants and the audit log', () => {
  it('lets only finance change tickets; another tenant ticket is 404', async () => {
    const id = ticket(0).id;
    const routes = [
      [`/v1/discrepancies/${id}/reopen`, { note: 'x' }],
      [`/v1/discrepancies/${id}/comments`, { note: 'x' }],
      ['/v1/discrepancies/bulk', { ids: [id], owner: 'x' }],
    ] as const;
    for (const roles of [['auditor'], ['admin'], ['poster']]) {
      const key = await createApiKey(api, team.tenant.adminKey, roles);
      for (const [path, body] of routes) expectError(await postTicket(api, key, path, body), 403, 'FORBIDDEN');
    }
    for (const [path, body] of routes.slice(0, 2)) {
      expectError(await postTicket(api, other.key, path, body), 404, 'NOT_FOUND');
      expectError(await postTicket(api, team.key, path.replace(id, randomUUID()), body), 404, 'NOT_FOUND');
      expectError(await postTicket(api, team.key, path.replace(id, 'not-an-id'), body), 404, 'NOT_FOUND');
    }
    const bulk = await postTicket(api, other.key, '/v1/discrepancies/bulk', { ids: [id], owner: 'intruder' });
    expect(bulk.body.results).toEqual([{ id, outcome: 'not_found', error: expect.any(Object) }]);
    expect((await getTicket(api, team.key, id)).owner).not.toBe('intruder');
  });

  it('records each change in the audit log with its actor', async () => {
    const [row] = await sqlRows<{ actions: string[] }>(
      api,
      `SELECT array_agg(DISTINCT action ORDER BY action) AS actions FROM audit_log
        WHERE tenant_id = $1 AND actor = $2 AND action LIKE 'discrepancy.%'`,
      [team.tenant.tenantId, actor],
    );
    expect(row!.actions).toEqual(['discrepancy.bulk_update', 'discrepancy.comment', 'discrepancy.reopen']);
  });
});
