// Maps time series onto an SVG frame. Pure: tested without a browser.

export interface Point {
  at: number;
  value: number;
}

export interface Frame {
  width: number;
  height: number;
  /** Room for the axis labels. */
  padding: { top: number; right: number; bottom: number; left: number };
}

export interface Domain {
  at: [number, number];
  value: [number, number];
}

/** The smallest and largest of the values; a flat line gets room around it, and zero is always shown. */
export function domainOf(series: Point[][]): Domain {
  const points = series.flat();
  const ats = points.map((point) => point.at);
  const values = [0, ...points.map((point) => point.value)];
  const at: [number, number] = ats.length ? [Math.min(...ats), Math.max(...ats)] : [0, 1];
  const value: [number, number] = [Math.min(...values), Math.max(...values)];
  if (at[0] === at[1]) at[1] = at[0] + 1;
  if (value[0] === value[1]) value[1] = value[0] + 1;
  return { at, value };
}

export function xOf(at: number, domain: Domain, frame: Frame): number {
  const span = frame.width - frame.padding.left - frame.padding.right;
  return frame.padding.left + ((at - domain.at[0]) / (domain.at[1] - domain.at[0])) * span;
}

export function yOf(value: number, domain: Domain, frame: Frame): number {
  const span = frame.height - frame.padding.top - frame.padding.bottom;
  return frame.height - frame.padding.bottom - ((value - domain.value[0]) / (domain.value[1] - domain.value[0])) * span;
}

/** An SVG path through the points in time order, rounded to a tenth of a pixel. */
export function pathOf(points: Point[], domain: Domain, frame: Frame): string {
  return [...points]
    .sort((a, b) => a.at - b.at)
    .map((point, index) => {
      const x = xOf(point.at, domain, frame).toFixed(1);
      const y = yOf(point.value, domain, frame).toFixed(1);
      return `${index === 0 ? 'M' : 'L'}${x},${y}`;
    })
    .join(' ');
}
