// The validation engine's identity, as the server reports it in every result and its system card.
// tsup copies server/src/engine/version.ts into the build: the published mock carries the version
// it was built with and imports no server code when it runs.
export { deterministicEngine as engine } from '../../server/src/engine/version.js';
