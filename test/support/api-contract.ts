import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import type { ApiHarness } from './api-harness';
import type { Answer } from './http-json';

// Checks real answers against the committed OpenAPI document (which a test keeps equal to the code's):
// the status must be documented for the route, and the body must validate against the schema the
// document gives for that status, with a JSON Schema 2020-12 validator and its formats.

const DOCUMENT_FILE = resolve(__dirname, '..', '..', 'openapi.json');

type Json = { [key: string]: any };
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface CallOptions {
  key?: string;
  idempotencyKey?: string;
  body?: unknown;
  query?: Record<string, string | undefined>;
  headers?: Record<string, string>;
}

const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

export class ApiContract {
  readonly document: Json = JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8'));
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  /** `METHOD /template status` of every answer checked, for the coverage assertions of a test file. */
  readonly checked = new Set<string>();

  constructor() {
    addFormats(this.ajv);
    this.ajv.addSchema(this.document, 'openapi.json');
  }

  operation(method: Method, template: string): Json {
    const operation = this.document.paths[template]?.[method.toLowerCase()];
    expect(operation, `${method} ${template} is documented`).toBeDefined();
    return operation;
  }

  /** The documented answer for `status` (exact, then `4XX`/`5XX`, then `default`), and where it is. */
  private documentedResponse(method: Method, template: string, status: number): { response: Json; at: string } {
    const responses = this.operation(method, template).responses as Json;
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((candidate) => candidate in responses);
    expect(key, `${method} ${template} documents an answer ${status} (has ${Object.keys(responses)})`).toBeDefined();
    const response = responses[key!];
    if (typeof response.$ref === 'string') {
      const name = response.$ref.slice('#/components/responses/'.length);
      return { response: this.document.components.responses[name], at: pointer('components', 'responses', name) };
    }
    return { response, at: pointer('paths', template, method.toLowerCase(), 'responses', key!) };
  }

  /** Fails unless `answer` is what the document says `method template` answers with its status. */
  check(method: Method, template: string, answer: Answer): void {
    const { response, at } = this.documentedResponse(method, template, answer.status);
    const where = `${method} ${template} ${answer.status}`;
    this.checked.add(where);
    const content = response.content as Json | undefined;
    if (content === undefined) {
      expect(answer.body, `${where} has no body`).toBeUndefined();
      return;
    }
    const mediaType = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim();
    expect(Object.keys(content), `${where}: content type ${mediaType} is documented`).toContain(mediaType);
    if (mediaType !== 'application/json') {
      expect(typeof answer.body, `${where}: a text body`).toBe('string');
      return;
    }
    const schemaAt = `openapi.json#/${at}/content/${pointer(mediaType)}/schema`;
    let validate = this.validators.get(schemaAt);
    if (!validate) {
      validate = this.ajv.compile({ $ref: schemaAt });
      this.validators.set(schemaAt, validate);
    }
    const valid = validate(answer.body);
    expect(
      valid,
      `${where}: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(answer.body)?.slice(0, 2000)}`,
    ).toBe(true);
  }
}

/** `/v1/accounts/{account}` with `{account: 'a:b'}` -> `/v1/accounts/a%3Ab`. */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    expect(params[name], `path parameter ${name}`).toBeDefined();
    return encodeURIComponent(params[name]!);
  });
}

/** Requests through the harness, each answer checked against the document before the test sees it. */
export function contractCaller(api: ApiHarness, contract: ApiContract) {
  return async function call(
    method: Method,
    template: string,
    options: CallOptions & { path?: Record<string, string> } = {},
  ): Promise<Answer> {
    const query = new URLSearchParams(
      Object.entries(options.query ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ).toString();
    const path = `${fillPath(template, options.path ?? {})}${query ? `?${query}` : ''}`;
    const answer = await api.request(method, path, options);
    contract.check(method, template, answer);
    return answer;
  };
}

/** Every `METHOD template` the document has. */
export function documentedOperations(contract: ApiContract): { method: Method; template: string; operation: Json }[] {
  return Object.entries(contract.document.paths as Json).flatMap(([template, item]) =>
    Object.entries(item as Json).map(([method, operation]) => ({
      method: method.toUpperCase() as Method,
      template,
      operation,
    })),
  );
}
