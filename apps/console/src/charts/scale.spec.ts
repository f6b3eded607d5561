import { describe, expect, it } from 'vitest';
import { type Frame, domainOf, pathOf, xOf, yOf } from './scale';

const frame: Frame = { width: 110, height: 60, padding: { top: 0, right: 0, bottom: 10, left: 10 } };

describe('chart scales', () => {
  it('spans the data and always includes zero', () => {
    expect(
      domainOf([
        [
          { at: 10, value: 5 },
          { at: 20, value: 15 },
        ],
      ]),
    ).toEqual({ at: [10, 20], value: [0, 15] });
    expect(domainOf([[{ at: 10, value: -5 }], [{ at: 30, value: 5 }]])).toEqual({ at: [10, 30], value: [-5, 5] });
  });

  it('gives a single point or no point a non-empty domain', () => {
    expect(domainOf([[{ at: 7, value: 0 }]])).toEqual({ at: [7, 8], value: [0, 1] });
    expect(domainOf([])).toEqual({ at: [0, 1], value: [0, 1] });
  });

  it('maps time left to right and values bottom to top inside the padding', () => {
    const domain = { at: [0, 100] as [number, number], value: [0, 50] as [number, number] };
    expect([xOf(0, domain, frame), xOf(100, domain, frame)]).toEqual([10, 110]);
    expect([yOf(0, domain, frame), yOf(50, domain, frame)]).toEqual([50, 0]);
    expect(
      pathOf(
        [
          { at: 100, value: 50 },
          { at: 0, value: 0 },
        ],
        domain,
        frame,
      ),
    ).toBe('M10.0,50.0 L110.0,0.0');
  });
});
