import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '@ledger/auth';
import { Database } from '@ledger/db';
import { DomainError } from '@ledger/errors';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly db: Database) {}

  /** Liveness and readiness: 200 when the database answers, 503 UNAVAILABLE when it does not. */
  @Get()
  @Public()
  async health(): Promise<{ status: 'ok'; database: 'up' }> {
    try {
      await this.db.executor.query('SELECT 1');
    } catch {
      throw new DomainError('UNAVAILABLE', 'the database does not answer');
    }
    return { status: 'ok', database: 'up' };
  }
}
