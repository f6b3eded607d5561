import { Controller, Get, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { LedgerMetrics } from '../metrics/ledger-metrics';
import { Endpoint } from '../openapi/endpoint';

@ApiTags('health')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: LedgerMetrics) {}

  /** Prometheus text format. Public like /health: it holds counts, never tenant data. */
  @Get()
  @Endpoint({
    operationId: 'getMetrics',
    summary: 'Prometheus metrics',
    description: 'Public like /health: counts, never tenant data.',
    access: 'public',
    answer: { status: 200, description: 'Prometheus text format.', text: ['text/plain'] },
  })
  async scrape(@Res() response: Response): Promise<void> {
    const text = await this.metrics.registry.metrics();
    response.type(this.metrics.registry.contentType).send(text);
  }
}
