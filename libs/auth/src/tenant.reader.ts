import { Injectable } from '@nestjs/common';
import { TenantRepository } from './tenant.repository';

/** What other libs and the apps may read of the tenants table (auth owns it). */
@Injectable()
export class TenantReader {
  constructor(private readonly tenants: TenantRepository) {}

  /** How many tenants exist (the API loads its demo data into an empty database only). */
  count(): Promise<number> {
    return this.tenants.count();
  }

  /** Every tenant's id, in id order: for jobs that visit each tenant in turn. */
  ids(): Promise<string[]> {
    return this.tenants.ids();
  }
}
