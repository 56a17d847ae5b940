// The deletion marker behind every authenticated call: calls that arrive together share one read,
// and a deletion is seen by the next call that arrives after it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CosmosStore, openCosmos } from '../../src/cosmos/cosmos.js';
import { TenantStateStore } from '../../src/cosmos/tenant-state-store.js';
import { createLogger } from '../../src/logger.js';
import { ClosedTenants } from '../../src/services/auth/closed-tenants.js';

class CountedState extends TenantStateStore {
  reads = 0;
  override deletionMarker(customerId: string) {
    this.reads += 1;
    return super.deletionMarker(customerId);
  }
}

describe('ClosedTenants', () => {
  let cosmos: CosmosStore;
  before(async () => {
    cosmos = await openCosmos({ cosmos: null, databaseId: 'closed-tenants-test', log: createLogger('silent') });
  });
  after(() => cosmos.close());

  it('answers calls that arrive while a read is under way from that read', async () => {
    const state = new CountedState(cosmos.container('tenant_state'));
    const closed = new ClosedTenants(state);
    const answers = await Promise.all(Array.from({ length: 25 }, () => closed.has('harbour')));
    assert.ok(answers.every((answer) => answer === false));
    assert.equal(state.reads, 1);
    await closed.has('harbour');
    assert.equal(state.reads, 2, 'a later call reads again');
  });

  it('sees a deletion made by another process on the next call, and keeps that answer', async () => {
    const state = new CountedState(cosmos.container('tenant_state'));
    const closed = new ClosedTenants(state);
    assert.equal(await closed.has('lighthouse'), false);
    await new TenantStateStore(cosmos.container('tenant_state')).markForDeletion(
      'lighthouse',
      { type: 'user', id: 'usr_keeper', name: 'Keeper', role: 'admin' },
      new Date(),
    );
    assert.equal(await closed.has('lighthouse'), true);
    const reads = state.reads;
    assert.equal(await closed.has('lighthouse'), true);
    assert.equal(state.reads, reads, 'a closed tenant is not read again');
  });
});
