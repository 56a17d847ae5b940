import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  // The contract package is private: tsconfig.build.json maps it to its source, and its code and types
  // are bundled in, so the published SDK stays self-contained.
  noExternal: ['@groundcheck/contract'],
  clean: true,
  sourcemap: true,
  target: 'es2020',
  platform: 'neutral',
  tsconfig: 'tsconfig.build.json',
});
