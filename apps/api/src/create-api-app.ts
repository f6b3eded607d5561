import { type INestApplication, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { Database } from '@ledger/db';
import { json } from 'express';
import { ApiModule } from './api.module';
import { consoleAssets } from './http/console-assets';
import { jsonDepthLimit } from './http/json-depth.middleware';
import { jsonOnly } from './http/json-only.middleware';
import { statementUpload } from './http/statement-upload.middleware';

/** Largest JSON body accepted; a batch of 1000 transfers fits with room to spare. */
export const REQUEST_BODY_BYTES_MAX = 2 * 1024 * 1024;

export interface ApiAppOptions {
  database: Database;
  operatorToken: string | undefined;
  logLevels?: LogLevel[];
  /** Where the built console is (dist/apps/console); unset: no console at /console. */
  consoleDir?: string;
}

export async function createApiApp(options: ApiAppOptions): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(ApiModule.forRoot(options), {
    bodyParser: false,
    logger: options.logLevels ?? ['error', 'warn', 'log'],
  });
  app.disable('x-powered-by');
  if (options.consoleDir !== undefined) app.use('/console', consoleAssets(options.consoleDir));
  app.use('/v1/imports', statementUpload);
  app.use(jsonOnly);
  app.use(json({ limit: REQUEST_BODY_BYTES_MAX, strict: true }));
  app.use(jsonDepthLimit);
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Ledger')
      .setDescription('Double-entry ledger: amounts are strings of integer minor units; every POST takes an Idempotency-Key.')
      .setVersion('1')
      .addBearerAuth()
      .build(),
  );
  SwaggerModule.setup('docs', app, document);
  return app;
}
