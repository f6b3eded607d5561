import { HttpException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toHttpError } from './error-translation';
import { requestTargetError, requestTargetProblem } from './request-target';

/**
 * Fastify's router refuses some targets before any hook or filter runs: a path it cannot percent-decode,
 * a path parameter longer than it takes. They are answered in the API's error shape, a bad path naming
 * the segment as the request-target check does.
 */
export function answerRouterError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
  const problem = requestTargetProblem(request.raw.url ?? '/');
  const status = (error as { statusCode?: number }).statusCode ?? 400;
  const translated = toHttpError(
    problem === null ? new HttpException(error.message, status, { cause: error }) : requestTargetError(problem),
  );
  void reply.status(translated.status).headers(translated.headers).send(translated.body);
}
