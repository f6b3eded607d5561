import { describe, expect, it } from 'vitest';
import { isoDate } from './calendar-date';

describe('isoDate', () => {
  it('answers a real day as it is written', () => {
    for (const day of ['2024-02-29', '2000-02-29', '0001-01-01', '9999-12-31', '2024-04-30'])
      expect(isoDate(day)).toBe(day);
  });

  it('refuses days that do not exist and every other shape', () => {
    for (const text of [
      '2023-02-29',
      '1900-02-29',
      '2024-04-31',
      '2024-13-01',
      '2024-00-10',
      '2024-01-00',
      '0000-01-01',
      '2024-1-01',
      '2024-01-01 ',
      '2024/01/01',
      '+024-01-01',
      '2024-01-3a',
      '２０２４-01-01',
      '',
    ])
      expect(isoDate(text)).toBeNull();
  });
});
