import type { Comparison } from './comparison';

// The report's chart, drawn as SVG text here (no charting dependency): one row per workload, the
// ledger's median throughput beside its plain SQL baseline's, each bar with a whisker from the
// slowest to the fastest run, and the ratio. Units differ between suites and sizes between workloads,
// so each row is scaled to its own larger bar.

const WIDTH = 980;
const LABEL_WIDTH = 330;
const BAR_AREA = 470;
const BAR_HEIGHT = 14;
const ROW_HEIGHT = 46;
const SECTION_GAP = 30;
const TOP = 70;
const COLORS = { ledger: '#2b6cb0', baseline: '#a0aec0', text: '#1a202c', muted: '#4a5568' };

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const number = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : 'n/a');

function bar(
  x: number,
  y: number,
  median: number,
  runs: readonly number[],
  scale: number,
  color: string,
  unit: string,
): string[] {
  const width = Number.isFinite(median) ? Math.max(1, median * scale) : 0;
  const low = Math.min(...runs) * scale;
  const high = Math.max(...runs) * scale;
  const middle = y + BAR_HEIGHT / 2;
  return [
    `<rect x="${x}" y="${y}" width="${width.toFixed(1)}" height="${BAR_HEIGHT}" fill="${color}"/>`,
    runs.length > 1
      ? `<line x1="${(x + low).toFixed(1)}" y1="${middle}" x2="${(x + high).toFixed(1)}" y2="${middle}" ` +
        `stroke="${COLORS.text}" stroke-width="1.5"/>`
      : '',
    `<text x="${(x + Math.max(width, high) + 6).toFixed(1)}" y="${y + 11}" font-size="11" ` +
      `fill="${COLORS.text}">${number(median)} ${escapeXml(unit)}</text>`,
  ];
}

function row(comparison: Comparison, y: number): string[] {
  const largest = Math.max(
    comparison.ledgerMedian,
    comparison.baselineMedian,
    ...comparison.ledgerRuns,
    ...comparison.baselineRuns,
  );
  const scale = largest > 0 ? (BAR_AREA - 110) / largest : 0;
  const ratio =
    comparison.baselineMedian > 0 ? `${(comparison.ledgerMedian / comparison.baselineMedian).toFixed(2)}×` : 'n/a';
  const x = LABEL_WIDTH;
  return [
    `<text x="12" y="${y + 13}" font-size="12" fill="${COLORS.text}">${escapeXml(comparison.workload)}</text>`,
    `<text x="12" y="${y + 30}" font-size="10" fill="${COLORS.muted}">` +
      `${escapeXml(comparison.ledgerPath)} vs plain SQL</text>`,
    ...bar(x, y, comparison.ledgerMedian, comparison.ledgerRuns, scale, COLORS.ledger, comparison.unit),
    ...bar(
      x,
      y + BAR_HEIGHT + 4,
      comparison.baselineMedian,
      comparison.baselineRuns,
      scale,
      COLORS.baseline,
      comparison.unit,
    ),
    `<text x="${WIDTH - 16}" y="${y + 22}" font-size="14" font-weight="bold" text-anchor="end" ` +
      `fill="${COLORS.text}">${ratio}</text>`,
  ];
}

export function renderChartSvg(comparisons: readonly Comparison[], subtitle: string): string {
  const parts: string[] = [];
  let y = TOP;
  let suite: string | undefined;
  for (const comparison of comparisons) {
    if (comparison.suite !== suite) {
      suite = comparison.suite;
      y += SECTION_GAP;
      parts.push(
        `<text x="12" y="${y - 8}" font-size="14" font-weight="bold" fill="${COLORS.text}">${escapeXml(suite)}</text>`,
      );
      parts.push(`<line x1="12" y1="${y - 3}" x2="${WIDTH - 12}" y2="${y - 3}" stroke="#e2e8f0"/>`);
    }
    parts.push(...row(comparison, y + 4));
    y += ROW_HEIGHT;
  }
  const height = y + 20;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" ` +
      'font-family="DejaVu Sans, Arial, sans-serif">',
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="12" y="26" font-size="18" font-weight="bold" fill="${COLORS.text}">Ledger vs plain SQL baseline: ` +
      'median throughput of the runs</text>',
    `<text x="12" y="46" font-size="11" fill="${COLORS.muted}">${escapeXml(subtitle)}</text>`,
    `<rect x="${LABEL_WIDTH}" y="54" width="12" height="10" fill="${COLORS.ledger}"/><text x="${LABEL_WIDTH + 16}" ` +
      `y="63" font-size="11" fill="${COLORS.text}">ledger</text>`,
    `<rect x="${LABEL_WIDTH + 70}" y="54" width="12" height="10" fill="${COLORS.baseline}"/><text ` +
      `x="${LABEL_WIDTH + 86}" y="63" font-size="11" fill="${COLORS.text}">plain SQL</text>`,
    `<text x="${LABEL_WIDTH + 160}" y="63" font-size="11" fill="${COLORS.muted}">whisker: slowest to fastest run; ` +
      'each row scaled to itself</text>',
    `<text x="${WIDTH - 16}" y="63" font-size="11" text-anchor="end" fill="${COLORS.muted}">ledger / SQL</text>`,
    ...parts.filter((part) => part !== ''),
    '</svg>',
    '',
  ].join('\n');
}
