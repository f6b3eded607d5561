import { html, svg, type TemplateResult } from 'lit-html';
import { type Frame, type Point, domainOf, pathOf, xOf, yOf } from './scale';

export interface Series {
  name: string;
  points: Point[];
}

export interface LineChartOptions {
  /** Read by screen readers as the chart's name, and shown above it. */
  title: string;
  series: Series[];
  formatValue(value: number): string;
}

const FRAME: Frame = { width: 640, height: 220, padding: { top: 12, right: 16, bottom: 28, left: 96 } };

const day = (at: number) => new Date(at).toISOString().slice(0, 10);

/** A hand-drawn SVG line chart: one line per series, zero line, min/max labels, a legend. */
export function lineChart(options: LineChartOptions): TemplateResult {
  const domain = domainOf(options.series.map((series) => series.points));
  const left = FRAME.padding.left;
  const right = FRAME.width - FRAME.padding.right;
  const bottom = FRAME.height - FRAME.padding.bottom;
  const zero = yOf(0, domain, FRAME);
  return html`<figure class="chart">
    <figcaption>${options.title}</figcaption>
    <svg viewBox="0 0 ${FRAME.width} ${FRAME.height}" role="img" aria-label=${options.title}>
      ${svg`<line class="axis" x1=${left} y1=${bottom} x2=${right} y2=${bottom}></line>
        <line class="axis" x1=${left} y1=${FRAME.padding.top} x2=${left} y2=${bottom}></line>
        <line class="zero" x1=${left} y1=${zero} x2=${right} y2=${zero}></line>
        <text class="label" x=${left - 6} y=${yOf(domain.value[1], domain, FRAME) + 4}
          text-anchor="end">${options.formatValue(domain.value[1])}</text>
        <text class="label" x=${left - 6} y=${yOf(domain.value[0], domain, FRAME) + 4}
          text-anchor="end">${options.formatValue(domain.value[0])}</text>
        <text class="label" x=${left} y=${FRAME.height - 8}>${day(domain.at[0])}</text>
        <text class="label" x=${right} y=${FRAME.height - 8} text-anchor="end">${day(domain.at[1])}</text>
        ${options.series.map(
          (series, index) => svg`<path class="series series-${index}" d=${pathOf(series.points, domain, FRAME)}></path>
            ${series.points.map(
              (point) => svg`<circle class="series series-${index}" r="3"
                cx=${xOf(point.at, domain, FRAME)} cy=${yOf(point.value, domain, FRAME)}></circle>`,
            )}`,
        )}`}
    </svg>
    <ul class="legend">
      ${options.series.map(
        (series, index) => html`<li><span class="swatch series-${index}"
          aria-hidden="true"></span>${series.name}</li>`,
      )}
    </ul>
  </figure>`;
}
