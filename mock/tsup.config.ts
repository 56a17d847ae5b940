import { defineConfig } from 'tsup';

export default defineConfig({
  // The library for import (ESM) and require (CommonJS, jest's default), with types for both, and
  // the command (`groundcheck-mock`), whose source starts with its #! line.
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm', 'cjs'],
  dts: { entry: 'src/index.ts' },
  clean: true,
  shims: true,
  target: 'node20',
  platform: 'node',
  // The contract package is private: its tables and canonical JSON are bundled in.
  noExternal: ['@groundcheck/contract'],
  tsconfig: 'tsconfig.build.json',
});
