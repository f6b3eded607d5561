import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '@ledger/config';
import { JobsModule } from '@ledger/jobs';
import type { ApiHarness } from './api-harness';

/** The real worker (relay, webhook delivery, scheduled jobs) on the API harness's database. */
export async function startWorker(
  api: ApiHarness,
  settings: Record<string, string> = {},
): Promise<INestApplicationContext> {
  const config = loadConfig(settings);
  const worker = await NestFactory.createApplicationContext(
    JobsModule.forRoot(api.db.database, {
      reconcileCron: config.reconcileCron,
      runLeaseSeconds: config.reconcileRunLeaseSeconds,
      events: config.events,
    }),
    {
      logger: ['error'],
    },
  );
  await worker.init();
  return worker;
}
