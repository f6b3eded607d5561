import { type DynamicModule, Global, Module } from '@nestjs/common';
import { Database } from './database';

/** Makes the one Database (created and migrated before Nest boots) injectable everywhere. */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(database: Database): DynamicModule {
    return { module: DatabaseModule, providers: [{ provide: Database, useValue: database }], exports: [Database] };
  }
}
