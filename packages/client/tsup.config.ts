import { defineConfig } from 'tsup';

// One bundle per module system, each with its own declarations (index.d.ts / index.d.cts), so
// both `import` and `require` consumers get types that match what they load.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  // The library runs unchanged in browsers, Deno, Bun and edge runtimes: no Node built-ins, and
  // ES2022 is what every runtime the README names supports.
  platform: 'neutral',
  target: 'es2022',
  dts: true,
  tsconfig: 'tsconfig.build.json',
  sourcemap: true,
  clean: true,
  // No `treeshake`: it runs Rollup over esbuild's output, which then ended with two
  // sourceMappingURL lines. esbuild alone already drops unused code when it bundles.
});
