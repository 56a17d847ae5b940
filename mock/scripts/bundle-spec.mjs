// Copies the contract into the package at build time: the published mock serves the openapi.yaml
// it was built with, never a path into the repository.
import { copyFileSync } from 'node:fs';

copyFileSync(new URL('../../contract/openapi.yaml', import.meta.url), new URL('../dist/openapi.yaml', import.meta.url));
