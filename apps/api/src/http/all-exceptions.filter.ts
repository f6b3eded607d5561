import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { toHttpError } from './error-translation';

@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(error: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const request = host.switchToHttp().getRequest<Request>();
    const translated = toHttpError(error, request);
    if (translated.unexpected) this.logger.error(error instanceof Error ? error.stack : String(error));
    if (response.headersSent) return;
    // Refused before its body was read (an upload with a bad key, say): close rather than read the rest.
    if (!request.complete) response.setHeader('Connection', 'close');
    response.status(translated.status).set(translated.headers).json(translated.body);
  }
}
