import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiContract, documentedOperations, fillPath } from './support/api-contract';
import { type ApiHarness, TEST_OPERATOR_TOKEN, startApi } from './support/api-harness';
import { createApiKey, setupTenant } from './support/ledger-fixtures';

// What the document says of every route's access and idempotency is what the server does: each
// documented operation is called without a key, with a key of a role it does not list, with a key of
// a role it lists, and (a POST that requires it) without an Idempotency-Key; every answer is checked
// against the document too. A route whose guard and description disagree fails here.

let api: ApiHarness;
const contract = new ApiContract();
const ROLES = ['admin', 'poster', 'finance', 'auditor'] as const;
type Role = (typeof ROLES)[number];
const keys = {} as Record<Role, string>;
let allRoles: string;

beforeAll(async () => {
  api = await startApi();
  const tenant = await setupTenant(api, 'contract access');
  for (const role of ROLES) keys[role] = await createApiKey(api, tenant.adminKey, [role]);
  allRoles = await createApiKey(api, tenant.adminKey, [...ROLES]);
});
afterAll(async () => {
  await api?.close();
});

const operations = documentedOperations(contract);

/** `METHOD /path` of every route in Fastify's printed route tree (HEAD left out: Fastify adds it to every GET). */
function routesOf(tree: string): string[] {
  const segments: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const node = /^((?:│ {3}| {4})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (node === null) continue;
    segments.length = node[1]!.length / 4;
    segments.push(node[2]!);
    for (const method of node[3]?.split(', ') ?? [])
      if (method !== 'HEAD') routes.push(`${method} ${segments.join('')}`);
  }
  return routes;
}
const PATH_VALUES: Record<string, string> = { account: 'assets:none' };

function pathOf(template: string): string {
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  return fillPath(template, Object.fromEntries(names.map((name) => [name, PATH_VALUES[name] ?? randomUUID()])));
}

/** The roles a route's security lists (`[{apiKey: ['poster']}, ...]`), or its kind of access. */
function accessOf(operation: { [field: string]: unknown }): 'public' | 'operator' | Role[] {
  const security = operation.security as Record<string, string[]>[];
  if (security.length === 0) return 'public';
  if (security.some((requirement) => 'operatorToken' in requirement)) return 'operator';
  return security.flatMap((requirement) => requirement.apiKey ?? []) as Role[];
}

async function send(method: string, template: string, options: { key?: string; idempotencyKey?: string } = {}) {
  const body = ['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined;
  const answer = await api.request(method, pathOf(template), { ...options, body });
  contract.check(method as 'GET', template, answer);
  return answer;
}

describe('every documented operation', () => {
  it('is every route the server has, each with a summary and its access stated', () => {
    const fastify = api.app.getHttpAdapter().getInstance() as { printRoutes(options: object): string };
    const served = routesOf(fastify.printRoutes({ commonPrefix: false }))
      .filter((route) => !/^[A-Z]+ (\/docs|\/console|\*)/.test(route))
      .map((route) => route.replace(/:(\w+)/g, '{$1}'));
    expect(operations.map(({ method, template }) => `${method} ${template}`).sort()).toEqual(served.sort());
    for (const { method, template, operation } of operations) {
      expect(operation.summary, `${method} ${template}`).toBeTruthy();
      expect(Array.isArray(operation.security), `${method} ${template} security`).toBe(true);
    }
  });

  it.each(operations.map(({ method, template, operation }) => [`${method} ${template}`, method, template, operation]))(
    '%s: the access and idempotency it documents',
    async (_name, method, template, operation) => {
      const access = accessOf(operation);
      if (access === 'public') {
        expect((await send(method, template)).status).not.toBe(403);
        return;
      }
      expect((await send(method, template)).body.error.code).toBe('UNAUTHENTICATED');
      if (access === 'operator') {
        expect((await send(method, template, { key: allRoles })).status).toBe(401);
        expect((await send(method, template, { key: TEST_OPERATOR_TOKEN })).status).not.toBe(401);
        return;
      }
      const outside = ROLES.find((role) => !access.includes(role));
      if (outside !== undefined) expect((await send(method, template, { key: keys[outside] })).status).toBe(403);
      for (const role of access) expect((await send(method, template, { key: keys[role] })).status).not.toBe(403);
      const header = operation.parameters?.find((parameter: { name: string }) => parameter.name === 'Idempotency-Key');
      if (method === 'POST') {
        const missing = await send(method, template, { key: allRoles });
        expect(missing.body?.error?.code === 'IDEMPOTENCY_KEY_MISSING', 'documented iff enforced').toBe(
          header?.required === true,
        );
      }
    },
  );
});
