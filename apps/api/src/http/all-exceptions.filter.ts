import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toHttpError } from './error-translation';

@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(error: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const translated = toHttpError(error, request);
    if (translated.unexpected) this.logger.error(error instanceof Error ? error.stack : String(error));
    if (reply.sent || reply.raw.headersSent) return;
    // Refused before its body was read (an upload with a bad key, say): close rather than read the rest.
    if (!request.raw.complete) reply.header('Connection', 'close');
    void reply.status(translated.status).headers(translated.headers).send(translated.body);
  }
}
