import { resolve } from 'node:path';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

const libs = ['money', 'db', 'auth', 'ledger', 'idempotency', 'outbox', 'config', 'errors', 'imports', 'reconciliation', 'inbox', 'proofs'];
const alias = Object.fromEntries(libs.map((lib) => [`@ledger/${lib}`, resolve(import.meta.dirname, `libs/${lib}/src/index.ts`)]));
// SWC, not esbuild: Nest's dependency injection needs emitted decorator metadata.
const plugins = [swc.vite({ module: { type: 'es6' } })];

export default defineConfig({
  plugins,
  resolve: { alias },
  test: {
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
          environment: 'node',
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
    ],
  },
});
