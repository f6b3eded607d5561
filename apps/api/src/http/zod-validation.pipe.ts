import { type PipeTransform } from '@nestjs/common';
import { DomainError } from '@ledger/errors';
import type { z } from 'zod';
import { JSON_DEPTH_MAX, jsonContentProblem, unstorableContentError } from './json-content';

/**
 * Validates a body or query against a zod schema; every bad field is named in the error. What it lets
 * through holds no text PostgreSQL cannot store (a NUL, half a surrogate pair), also where a schema
 * decodes text of its own (the `metadata` filter's JSON).
 */
export class ZodValidationPipe<Schema extends z.ZodType> implements PipeTransform<unknown, z.output<Schema>> {
  constructor(
    private readonly schema: Schema,
    private readonly where: 'body' | 'query' = 'body',
  ) {}

  transform(value: unknown): z.output<Schema> {
    const parsed = this.schema.safeParse(value ?? (this.where === 'query' ? {} : undefined));
    if (parsed.success) {
      const problem = jsonContentProblem(parsed.data, JSON_DEPTH_MAX);
      if (problem !== null) throw unstorableContentError(problem, this.where);
      return parsed.data;
    }
    const fields = parsed.error.issues.flatMap((issue) => {
      const path = issue.path.map(String);
      // An unknown field is named by its own path, not by the object that holds it.
      if (issue.code === 'unrecognized_keys')
        return issue.keys.map((key) => ({ path: [...path, key].join('.'), message: 'unknown field' }));
      return [{ path: path.join('.') || this.where, message: issue.message }];
    });
    throw new DomainError('VALIDATION_FAILED', `the request ${this.where} is not valid`, { fields });
  }
}
