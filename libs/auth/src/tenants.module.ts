import { Module } from '@nestjs/common';
import { TenantReader } from './tenant.reader';
import { TenantRepository } from './tenant.repository';

/**
 * The tenants table on its own, without the guard that AuthModule installs: a lib or a process that
 * only needs to read tenants (the worker's jobs visiting each one) imports this.
 */
@Module({
  providers: [TenantRepository, TenantReader],
  exports: [TenantRepository, TenantReader],
})
export class TenantsModule {}
