// Prism's validating proxy (`prism proxy --errors`) in front of the reference server, as a child
// process on a loopback port, started as the mock package starts Prism: every request and response
// that passes through is checked against openapi.yaml, and a violation turns into Prism's own error
// answer, which the recorder counts.
import { runPrism } from '../../../mock/src/prism.js';

export interface RunningProxy {
  url: string;
  /** What Prism printed: its log names every violation it found. */
  output(): string;
  close(): Promise<void>;
}

export async function startPrismProxy(specPath: string, upstream: string): Promise<RunningProxy> {
  const prism = await runPrism(['proxy', '--errors', specPath, upstream]);
  return { url: `http://${prism.host}:${prism.port}`, output: prism.output, close: prism.stop };
}
