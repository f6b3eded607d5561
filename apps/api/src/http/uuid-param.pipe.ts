import type { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import { DomainError } from '@ledger/errors';
import { isUuid } from '@ledger/ids';

/** A route's `:id` that must be a UUID: anything else is 400 VALIDATION_FAILED naming the parameter. */
export class UuidParamPipe implements PipeTransform<string, string> {
  transform(value: string, metadata: ArgumentMetadata): string {
    const name = metadata.data ?? 'id';
    if (typeof value !== 'string' || !isUuid(value)) {
      throw new DomainError('VALIDATION_FAILED', `the path parameter ${name} is not valid`, {
        fields: [{ path: name, message: 'must be a UUID' }],
      });
    }
    return value.toLowerCase();
  }
}
