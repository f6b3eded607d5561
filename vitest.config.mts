import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import swc from 'unplugin-swc';
import { configDefaults, defineConfig } from 'vitest/config';

const libs = [
  'money',
  'db',
  'auth',
  'ledger',
  'idempotency',
  'outbox',
  'config',
  'errors',
  'imports',
  'reconciliation',
  'inbox',
  'payments',
  'proofs',
  'client',
  'exports',
  'ids',
  'calendar',
  'jobs',
];
const alias = Object.fromEntries(
  libs.map((lib) => [`@ledger/${lib}`, resolve(import.meta.dirname, `libs/${lib}/src/index.ts`)]),
);
// SWC, not esbuild: Nest's dependency injection needs emitted decorator metadata.
const plugins = [swc.vite({ module: { type: 'es6' } })];

export default defineConfig({
  plugins,
  resolve: { alias },
  test: {
    // Vitest's default is one worker per core but one; on two cores that ran one file at a time, and two
    // workers took the unit and integration tiers from about 950 s to 675 s (the fault tier stays serial).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The JSON report lets .ci/run print a plain "N passed, N failed" closing line.
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    projects: [
      {
        plugins,
        resolve: { alias },
        test: { name: 'unit', include: ['libs/**/*.spec.ts', 'apps/**/*.spec.ts'], environment: 'node' },
      },
      {
        plugins,
        resolve: { alias },
        test: {
          name: 'integration',
          include: ['libs/**/*.int-spec.ts', 'test/**/*.e2e-spec.ts'],
          exclude: [...configDefaults.exclude, 'test/faults/**'],
          environment: 'node',
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        plugins,
        resolve: { alias },
        test: {
          // Crash tests of the built processes (test/faults/README.md): after the other tiers, one file at a time.
          name: 'faults',
          include: ['test/faults/**/*.fault-spec.ts'],
          environment: 'node',
          globalSetup: ['test/faults/support/fault-setup.ts'],
          testTimeout: 240_000,
          hookTimeout: 120_000,
          pool: 'forks',
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
