import { randomUUID } from 'node:crypto';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { createApiKey, postWithKey, setupTenant, sqlRows } from './support/ledger-fixtures';

// Every privileged change (a route for admin, finance or the operator that is not a read) leaves an
// audit entry naming its actor, or is listed here with the record that makes it accountable instead.
// A new privileged route that is neither fails the first test.

const EXEMPT: Record<string, string> = {
  'POST /v1/imports': 'the import row records its actor (statement_imports.actor), append-only once completed',
  'POST /v1/matches': 'a match made by hand records its actor and note in match_events (append-only)',
  'PATCH /v1/matches/:id': 'a confirmation or undo records its actor and note in match_events (append-only)',
  'POST /v1/reconciliation/runs': 'the run records its actor (reconciliation_runs.actor)',
  'PATCH /v1/discrepancies/:id': 'each change is a ticket event with its actor (discrepancy_events, append-only)',
};

const ACCESS_METADATA = 'ledger:access';
const AUDIT_METADATA = 'ledger:audit';
const PRIVILEGED_ROLES = ['admin', 'finance'];

type Access = { kind: 'public' } | { kind: 'operator' } | { kind: 'roles'; roles: string[] };
interface Route {
  route: string;
  privileged: boolean;
  audited: string | undefined;
}

/** Every handler the API registered, with its method, path, access and audit action. */
function registeredRoutes(api: ApiHarness): Route[] {
  const routes: Route[] = [];
  for (const module of api.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const type = wrapper.metatype as (new (...args: never[]) => unknown) | undefined;
      if (!type) continue;
      const prefix = String(Reflect.getMetadata(PATH_METADATA, type) ?? '');
      for (const name of Object.getOwnPropertyNames(type.prototype)) {
        const handler = type.prototype[name];
        const method = typeof handler === 'function' ? Reflect.getMetadata(METHOD_METADATA, handler) : undefined;
        if (method === undefined) continue;
        const path = String(Reflect.getMetadata(PATH_METADATA, handler) ?? '/');
        const verb = RequestMethod[method as RequestMethod];
        const access: Access | undefined = Reflect.getMetadata(ACCESS_METADATA, handler);
        const privileged =
          verb !== 'GET' &&
          (access?.kind === 'operator' ||
            (access?.kind === 'roles' && access.roles.some((role) => PRIVILEGED_ROLES.includes(role))));
        const full = `/${[prefix, path]
          .map((part) => part.replace(/^\/|\/$/g, ''))
          .filter(Boolean)
          .join('/')}`;
        routes.push({ route: `${verb} ${full}`, privileged, audited: Reflect.getMetadata(AUDIT_METADATA, handler) });
      }
    }
  }
  return routes;
}

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi({ settings: { LEDGER_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
});
afterAll(async () => {
  await api?.close();
});

async function auditEntries(tenantId: string) {
  return sqlRows<{ action: string; actor: string; target_id: string | null }>(
    api,
    'SELECT action, actor, target_id FROM audit_log WHERE tenant_id = $1 ORDER BY id',
    [tenantId],
  );
}

describe('privileged routes', () => {
  it('are each audited or exempted with the reason they are accountable anyway', () => {
    const routes = registeredRoutes(api);
    expect(routes.length).toBeGreaterThan(30);
    const privileged = routes.filter((route) => route.privileged);
    const unaccounted = privileged.filter((route) => route.audited === undefined && !(route.route in EXEMPT));
    expect(unaccounted.map((route) => route.route)).toEqual([]);
    // An exemption names a route that exists, is privileged and is not audited: none goes stale.
    for (const route of Object.keys(EXEMPT)) {
      expect(privileged.find((candidate) => candidate.route === route)?.audited, route).toBeUndefined();
      expect(
        privileged.some((candidate) => candidate.route === route),
        route,
      ).toBe(true);
    }
    for (const route of ['POST /v1/webhooks', 'DELETE /v1/webhooks/:id', 'POST /v1/inbound-sources']) {
      expect(routes.find((candidate) => candidate.route === route)?.audited, route).toBeDefined();
    }
    // Conversions and quotes are a poster's postings, not privileged changes: the conversion's transaction
    // records its actor (append-only, in the journal) and so does the quote row (fx_quotes.actor). Should
    // they ever open to admin or finance, they need an audit entry or an exemption like the routes above.
    for (const route of ['POST /v1/conversions', 'POST /v1/conversions/quotes']) {
      expect(routes.find((candidate) => candidate.route === route)?.privileged, route).toBe(false);
    }
  });

  it('webhook create, rotate, redeliver, delete and inbound-source creation: entries with their actor', async () => {
    const tenant = await setupTenant(api, 'audited webhooks');
    const admin = await api.request('GET', '/v1/api-keys/current', { key: tenant.adminKey });
    const actor = `api-key:${admin.body.id}`;
    expect(admin.body.actor).toBe(actor);
    const before = (await auditEntries(tenant.tenantId)).length;

    const webhook = await postWithKey(api, tenant.adminKey, '/v1/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      events: [],
    });
    expect(webhook.status, JSON.stringify(webhook.body)).toBe(201);
    const rotated = await postWithKey(api, tenant.adminKey, `/v1/webhooks/${webhook.body.id}/rotate-secret`, {});
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(201);
    const deliveryId = randomUUID();
    await sqlRows(
      api,
      `INSERT INTO webhook_deliveries (tenant_id, id, subscription_id, event_id, event_type, body, status)
       VALUES ($1, $2, $3, $4, 'account.created', '{}', 'dead')`,
      [tenant.tenantId, deliveryId, webhook.body.id, randomUUID()],
    );
    const redelivered = await postWithKey(
      api,
      tenant.adminKey,
      `/v1/webhooks/${webhook.body.id}/deliveries/${deliveryId}/redeliver`,
      {},
    );
    expect(redelivered.status, JSON.stringify(redelivered.body)).toBe(201);
    const deleted = await api.request('DELETE', `/v1/webhooks/${webhook.body.id}`, { key: tenant.adminKey });
    expect(deleted.status).toBe(204);
    const source = await postWithKey(api, tenant.adminKey, '/v1/inbound-sources', { name: 'psp', mappings: {} });
    expect(source.status, JSON.stringify(source.body)).toBe(201);
    // Refused: not found, and a role that may not; neither leaves an entry.
    const missing = await api.request('DELETE', `/v1/webhooks/${randomUUID()}`, { key: tenant.adminKey });
    expect(missing.status).toBe(404);
    const auditor = await createApiKey(api, tenant.adminKey, ['auditor']);
    expect((await postWithKey(api, auditor, '/v1/webhooks', { url: 'http://127.0.0.1:9/x', events: [] })).status).toBe(
      403,
    );

    const entries = (await auditEntries(tenant.tenantId)).slice(before);
    expect(entries).toEqual([
      { action: 'webhook.create', actor, target_id: webhook.body.id },
      { action: 'webhook.rotate_secret', actor, target_id: webhook.body.id },
      { action: 'webhook.redeliver', actor, target_id: deliveryId },
      { action: 'webhook.delete', actor, target_id: webhook.body.id },
      { action: 'inbound_source.create', actor, target_id: source.body.id },
      { action: 'api_key.create', actor, target_id: expect.any(String) },
    ]);
    const log = await api.request('GET', '/v1/audit-log?limit=10', { key: auditor });
    expect(JSON.stringify(log.body)).not.toContain(webhook.body.secret);
    expect(JSON.stringify(log.body)).not.toContain(source.body.secret);
  });
});
