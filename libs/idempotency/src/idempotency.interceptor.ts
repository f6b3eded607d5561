import assert from 'node:assert/strict';
import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  RequestMethod,
  SetMetadata,
  type Type,
  createParamDecorator,
} from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { canonicalJson, sha256 } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import { type Observable, from, lastValueFrom } from 'rxjs';
import { IdempotentExecution, type KeyInTransaction, type Outcome } from './idempotent-execution';

const IDEMPOTENCY_METADATA = 'ledger:idempotency';
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

export interface IdempotencyOptions {
  /** false for the few POSTs outside the contract (tenant creation by the operator). */
  required: boolean;
  redact?: readonly string[];
  /**
   * The handler claims the key and stores its outcome itself, in a transaction it opens (a posting
   * group, which does several requests' work in one): it takes the key with `@RequestKey()`.
   */
  keyInHandler?: boolean;
}

/**
 * A POST route's idempotency. Only a route that requires a key runs the interceptor, as the outermost of its
 * own interceptors, whatever the order of its decorators (an audited route's record is then written in the
 * key's transaction). No other route pays for one: with AsyncLocalStorage on, Nest's interceptor pipeline
 * costs tens of microseconds a request (test/bench/README.md).
 */
export function Idempotency(options: IdempotencyOptions): MethodDecorator {
  return (target, property, descriptor) => {
    SetMetadata(IDEMPOTENCY_METADATA, options)(target, property, descriptor);
    if (!options.required) return;
    const handler = descriptor.value as object;
    const others: unknown[] = Reflect.getMetadata(INTERCEPTORS_METADATA, handler) ?? [];
    Reflect.defineMetadata(INTERCEPTORS_METADATA, [IdempotencyInterceptor, ...others], handler);
  };
}

/**
 * Throws unless every POST handler of the controllers states its idempotency (`Idempotency`): one that does
 * not would take no key at all, where the contract requires one on every POST but a few.
 */
export function assertPostsStateIdempotency(controllers: readonly Type[]): void {
  const silent = controllers.flatMap((controller) =>
    Object.getOwnPropertyNames(controller.prototype)
      .filter((name) => {
        const handler: unknown = controller.prototype[name];
        return (
          typeof handler === 'function' &&
          Reflect.getMetadata(METHOD_METADATA, handler) === RequestMethod.POST &&
          Reflect.getMetadata(IDEMPOTENCY_METADATA, handler) === undefined
        );
      })
      .map((name) => `${controller.name}.${name}`),
  );
  assert.deepEqual(silent, [], 'every POST route states its idempotency (Endpoint: idempotency)');
}

/** A stored answer sent again: rendered by the exception filter, with `Idempotent-Replayed: true`. */
export class ReplayedResponse {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

interface HttpRequest {
  method: string;
  /** The path and query as sent. */
  url: string;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  principal?: { tenantId: string };
  /** A received file upload: its hash is part of what the request is. */
  upload?: { sha256: string };
  /** For a `keyInHandler` route: the request's key, which the handler claims in its own transaction. */
  idempotencyKey?: KeyInTransaction;
}

/** The request's Idempotency-Key on a `keyInHandler` route (see IdempotencyOptions). */
export const RequestKey = createParamDecorator((_data: unknown, context: ExecutionContext): KeyInTransaction => {
  const key = context.switchToHttp().getRequest<HttpRequest>().idempotencyKey;
  assert.ok(key !== undefined, 'RequestKey is taken on a route whose idempotency is keyInHandler');
  return key;
});

@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly execution: IdempotentExecution,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<HttpRequest>();
    const options = this.reflector.get<IdempotencyOptions | undefined>(IDEMPOTENCY_METADATA, context.getHandler());
    assert.ok(options?.required, 'the interceptor runs on the routes that require a key');
    const key = request.headers['idempotency-key'];
    if (key === undefined)
      throw new DomainError('IDEMPOTENCY_KEY_MISSING', 'POST requests need an Idempotency-Key header');
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      throw new DomainError('VALIDATION_FAILED', 'Idempotency-Key must be 1 to 255 printable ASCII characters', {
        fields: [{ path: 'Idempotency-Key', message: 'invalid header value' }],
      });
    }
    const tenantId = request.principal!.tenantId;
    const content =
      request.upload === undefined
        ? (request.body ?? null)
        : { fields: request.body ?? null, fileSha256: request.upload.sha256 };
    // The path as sent, without the query (the same route with another id is another request).
    const path = request.url.split('?')[0];
    const fingerprint = sha256(`POST ${path}\n${canonicalJson(content)}`);
    const response = context
      .switchToHttp()
      .getResponse<{ statusCode: number; header(name: string, value: string): unknown }>();
    const successStatus = response.statusCode;
    const idempotent = { tenantId, key, fingerprint, successStatus, redact: options.redact ?? [] };
    const run = async () => {
      const outcome = options.keyInHandler
        ? await this.execution.runWithKey(idempotent, (requestKey) => {
            request.idempotencyKey = requestKey;
            return lastValueFrom(next.handle()) as Promise<Outcome>;
          })
        : await this.execution.run(idempotent, () => lastValueFrom(next.handle()));
      if (outcome.kind === 'failed') throw outcome.error;
      if (outcome.kind === 'replayed') throw new ReplayedResponse(outcome.status, outcome.body);
      // The JSON text just stored is the answer: sent as it is instead of serialised a second time
      // (a batch's answer is most of a megabyte).
      if (outcome.bodyJson === null || typeof outcome.body !== 'object' || outcome.body === null) return outcome.body;
      response.header('Content-Type', 'application/json; charset=utf-8');
      return outcome.bodyJson;
    };
    return from(run());
  }
}
