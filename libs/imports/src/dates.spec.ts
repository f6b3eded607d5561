import { describe, expect, it } from 'vitest';
import { isoDateOfDateTime } from './dates';

describe('isoDateOfDateTime', () => {
  it('takes the calendar date of a date-time as the bank wrote it', () => {
    expect(isoDateOfDateTime('2024-03-01T00:30:00+01:00')).toBe('2024-03-01');
    expect(isoDateOfDateTime('2024-02-30T10:00:00Z')).toBeNull();
  });
});
