#!/usr/bin/env node
// groundcheck-mock [--port 4010] [--host 127.0.0.1] [--dynamic [--seed <seed>]]
import { parseArgs } from 'node:util';
import { startMock } from './index.js';

const usage = `Usage: groundcheck-mock [options]

Serves the Groundcheck API from the examples of the openapi.yaml bundled with this package.

  -p, --port <port>   port to listen on (default 4010)
  -h, --host <host>   address to listen on (default 127.0.0.1)
  -d, --dynamic       generate responses from the schemas instead of the examples
      --seed <seed>   seed for --dynamic, so generated data repeats
      --help          show this help

Pick a named example with the request header \`Prefer: example=<name>\`, or a status with
\`Prefer: code=<status>\`. Validate and review requests get the example of their mode or action.`;

const { values } = parseArgs({
  options: {
    port: { type: 'string', short: 'p', default: '4010' },
    host: { type: 'string', short: 'h', default: '127.0.0.1' },
    dynamic: { type: 'boolean', short: 'd', default: false },
    seed: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

async function main() {
  if (values.help) {
    console.log(usage);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`Not a port: ${values.port}\n\n${usage}`);
    process.exit(2);
  }
  const mock = await startMock({ port, host: values.host, dynamic: values.dynamic, seed: values.seed, log: process.stdout });
  console.log(`Groundcheck mock listening on ${mock.url}`);
  const stop = () => void mock.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
