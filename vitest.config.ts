import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Tests run against the sources, never against a build: each workspace package resolves to its src.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@latchkey\/core\/node$/, replacement: src('./packages/core/src/node/index.ts') },
      { find: /^@latchkey\/core$/, replacement: src('./packages/core/src/index.ts') },
      {
        find: /^@latchkey\/adapter-(express|fastify|hono)$/,
        replacement: src('./packages/adapter-$1/src/index.ts'),
      },
      {
        find: /^@latchkey\/webhook-verifier\/(redis|web)$/,
        replacement: src('./packages/webhook-verifier/src/$1.ts'),
      },
      { find: /^@latchkey\/webhook-verifier$/, replacement: src('./packages/webhook-verifier/src/index.ts') },
    ],
  },
  test: {
    include: ['packages/*/{src,test}/**/*.test.ts', 'examples/*/{src,test}/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // In CI the results are also written as JSON, so the run can end on one plain summary line.
    reporters: process.env['CI']
      ? ['default', ['json', { outputFile: 'node_modules/.cache/vitest-results.json' }]]
      : ['default'],
  },
});
