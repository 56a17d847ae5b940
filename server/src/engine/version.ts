/** The built-in engine's identity, reported in every result and in the system card. */
export const deterministicEngine = { method: 'deterministic-evidence-check', version: '2.6.0' } as const;
