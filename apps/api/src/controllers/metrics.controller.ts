import { Controller, Get, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { LedgerMetrics } from '../metrics/ledger-metrics';
import { Endpoint } from '../openapi/endpoint';

@ApiTags('health')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: LedgerMetrics) {}

  /**
   * Prometheus text format: counts summed over every tenant, so for the operator's scraper only; the
   * figures read from the database are reused for a few seconds, however often it is scraped.
   */
  @Get()
  @Endpoint({
    operationId: 'getMetrics',
    summary: 'Prometheus metrics',
    description:
      'Counts summed over every tenant (outbox backlog, webhook deliveries, runs, open tickets) and this ' +
      "process's posting rate and latency; the database's figures are reused for `LEDGER_METRICS_CACHE_SECONDS`.",
    access: 'metrics',
    reads: 'primary',
    answer: { status: 200, description: 'Prometheus text format.', text: ['text/plain'] },
  })
  async scrape(@Res() response: FastifyReply): Promise<void> {
    const text = await this.metrics.registry.metrics();
    response.type(this.metrics.registry.contentType).send(text);
  }
}
