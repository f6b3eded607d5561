import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SoakReport } from './soak-runner';

// bench-results/soak.md and soak.json: per operation its throughput, p50/p99 latency and every outcome
// by code, then each invariant's verdict.

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

export function renderSoakMarkdown(report: SoakReport): string {
  const total = report.operations.reduce(
    (sum, operation) => sum + (Number.isFinite(operation.p50Ms) ? operation.count : 0),
    0,
  );
  return [
    `# Soak: ${report.startedAt}`,
    '',
    `${report.clients} clients for ${report.seconds.toFixed(0)} s against the built API and worker on loopback: ` +
      `${total} requests ` +
      `(${fixed(total / report.seconds, 1)}/s). Verdict: ${report.ok ? 'OK' : 'FAILED'}.`,
    "Rows without a latency count the items inside answers (a batch's results). A request that got no answer was " +
      'sent again',
    'with the same Idempotency-Key (counted as such in its outcomes, its latency includes the retries); only one ' +
      'that never',
    'got an answer fails the soak.',
    '',
    '| operation | count | per second | p50 ms | p99 ms | outcomes | unexpected |',
    '|---|---:|---:|---:|---:|---|---|',
    ...report.operations.map((operation) => {
      const outcomes = Object.entries(operation.outcomes)
        .sort(([, left], [, right]) => right - left)
        .map(([label, count]) => `${label}: ${count}`)
        .join('; ');
      const unexpected =
        Object.entries(operation.unexpected)
          .map(([label, count]) => `${label}: ${count}`)
          .join('; ') || '-';
      return (
        `| ${operation.operation} | ${operation.count} | ${fixed(operation.perSecond, 1)} | ` +
        `${fixed(operation.p50Ms, 1)} | ${fixed(operation.p99Ms, 1)} | ${outcomes} | ${unexpected} |`
      );
    }),
    '',
    '## Invariants after the soak',
    '',
    ...report.checks.map((check) => `- ${check.ok ? 'OK' : 'FAIL'} ${check.name}: ${check.detail}`),
    '',
  ].join('\n');
}

export async function writeSoakReport(
  directory: string,
  report: SoakReport,
): Promise<{ markdown: string; paths: string[] }> {
  await mkdir(directory, { recursive: true });
  const markdown = renderSoakMarkdown(report);
  const paths = [join(directory, 'soak.md'), join(directory, 'soak.json')];
  await writeFile(paths[0]!, markdown);
  await writeFile(paths[1]!, `${JSON.stringify(report, null, 2)}\n`);
  return { markdown, paths };
}
