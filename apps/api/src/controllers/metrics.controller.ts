import { Controller, Get, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '@ledger/auth';
import type { Response } from 'express';
import { LedgerMetrics } from '../metrics/ledger-metrics';

@ApiTags('health')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: LedgerMetrics) {}

  /** Prometheus text format. Public like /health: it holds counts, never tenant data. */
  @Get()
  @Public()
  async scrape(@Res() response: Response): Promise<void> {
    const text = await this.metrics.registry.metrics();
    response.type(this.metrics.registry.contentType).send(text);
  }
}
