// The real reference server on loopback for SDK tests, and SDK clients signed in to it the way an
// integrator signs in (auth.login with the fixture tenant's credentials).
import { email, password } from '../../../server/test/support/fixtures.js';
import { startTestServer, type TestServer, type TestServerOptions } from '../../../server/test/support/harness.js';
import { createClient, type GroundcheckClient } from '../../src/index.js';

type Role = 'admin' | 'user' | 'viewer';

/** A client holding the bearer token that `auth.login` returned for the tenant's user of this role. */
export async function signIn(server: TestServer, customerId: string, role: Role): Promise<GroundcheckClient> {
  const { token } = await createClient({ baseUrl: server.url }).auth.login({
    email: email(customerId, role),
    password: password(customerId, role),
    customer_id: customerId,
  });
  return createClient({ baseUrl: server.url, token });
}

/** Starts the server (close it with `server.close()`) with a client signed in as acme's admin. */
export async function startReferenceServer(options?: TestServerOptions): Promise<{ server: TestServer; admin: GroundcheckClient }> {
  const server = await startTestServer(options);
  return { server, admin: await signIn(server, 'acme', 'admin') };
}
