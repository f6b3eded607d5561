import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { toHttpError } from './error-translation';

@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(error: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const translated = toHttpError(error);
    if (translated.unexpected) this.logger.error(error instanceof Error ? error.stack : String(error));
    if (response.headersSent) return;
    response.status(translated.status).set(translated.headers).json(translated.body);
  }
}
