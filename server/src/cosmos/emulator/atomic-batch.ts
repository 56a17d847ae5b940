// Transactional batches in the embedded emulator as Cosmos DB runs them. The emulator applies a
// batch's operations one by one, keeps those before a failing one, and refuses Patch operations in a
// batch. Cosmos DB applies all or nothing, answers the failing operation's status with 424 for the
// others, and accepts Patch (the counters are `incr` patches written with their record). This
// handler snapshots every document the batch names, applies the operations with the emulator's
// own single-operation code, and on a failure puts every snapshot back as it was (same `_rid` and
// `_etag`). The emulator handles one request at a time on its event loop, so nothing interleaves.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';

type Document = Record<string, unknown> & { id: string; _etag: string };
interface Outcome {
  statusCode: number;
  body?: Document | Record<string, unknown>;
}
interface BatchOperation {
  operationType?: string;
  id?: string;
  partitionKey?: string;
  ifMatch?: string;
  resourceBody?: Document | unknown[] | { operations?: unknown[]; condition?: string };
}
interface Items {
  delete(id: string, partition: unknown): void;
  _set(document: Document): void;
}
interface Collection {
  read(): unknown;
  document(id: string, partition: unknown): { read(): Document | undefined };
  documents: Items;
}
interface Snapshot {
  id: string;
  partition: unknown;
  document: Document | undefined;
}
type Account = { database(id: string): { collection(id: string): Collection } };
type Handler = (account: Account, req: IncomingMessage, res: ServerResponse, params: Record<string, string>) => Promise<unknown>;

/** Most operations Cosmos DB takes in one transactional batch. */
const maxOperations = 100;

/** Installs the handler; must run before the emulator's routes are loaded (they keep the handler they find). */
export function installAtomicBatch(serverPath: string): void {
  const load = createRequire(serverPath);
  if (Object.keys(load.cache).some((path) => path.endsWith('cosmosdb-server/lib/routes.js'))) {
    throw new Error('the emulator was loaded before its batch handler was replaced');
  }
  const readJson = load('./json').default as (req: IncomingMessage) => Promise<unknown>;
  const documents = load('./handler/_document-operations') as Record<string, (c: Collection, input: BatchOperation) => Outcome>;
  const { patchOperation } = load('./handler/_patch-operations') as {
    patchOperation(
      c: Collection,
      input: { id?: string; partitionKey?: string; ifMatch?: string; operations: unknown; condition?: string },
    ): Outcome;
  };
  const { parsePartitionKey } = load('./utils/get-partition-from-header') as { parsePartitionKey(key: string, id: string): unknown };
  const single: Record<string, (c: Collection, input: BatchOperation) => Outcome> = {
    Create: documents.createOperation!,
    Upsert: documents.upsertOperation!,
    Read: documents.readOperation!,
    Delete: documents.deleteOperation!,
    Replace: documents.replaceOperation!,
    Patch: (collection, input) => {
      const body = input.resourceBody;
      return patchOperation(collection, {
        id: input.id,
        partitionKey: input.partitionKey,
        ifMatch: input.ifMatch,
        operations: Array.isArray(body) ? body : body && 'operations' in body ? body.operations : undefined,
        condition: Array.isArray(body) ? undefined : (body as { condition?: string } | undefined)?.condition,
      });
    },
  };

  /** Why Cosmos DB would refuse the batch before running it; null when it runs. */
  function refusal(collection: Collection, body: unknown): Outcome | null {
    if (!collection.read()) return { statusCode: 404, body: {} };
    if (!Array.isArray(body) || body.length === 0 || body.length > maxOperations) {
      return { statusCode: 400, body: { message: `a batch holds 1 to ${maxOperations} operations` } };
    }
    if ((body as BatchOperation[]).some((operation) => !single[operation?.operationType ?? ''])) {
      return { statusCode: 400, body: { message: 'unsupported operation type in batch' } };
    }
    return null;
  }

  /** Every document the batch names, as it is before: undefined when there is none. */
  function snapshot(collection: Collection, operations: BatchOperation[]): Snapshot[] {
    const before = new Map<string, Snapshot>();
    for (const operation of operations) {
      const id = operation.id ?? (operation.resourceBody as Document | undefined)?.id;
      if (typeof id !== 'string' || typeof operation.partitionKey !== 'string') continue;
      const partition = parsePartitionKey(operation.partitionKey, id);
      const key = JSON.stringify([partition, id]);
      if (!before.has(key)) before.set(key, { id, partition, document: collection.document(id, partition).read() });
    }
    return [...before.values()];
  }

  /** The outcomes of the operations up to and including the first that fails. */
  function applyUntilFailure(collection: Collection, operations: BatchOperation[]): Outcome[] {
    const outcomes: Outcome[] = [];
    for (const operation of operations) {
      const outcome = single[operation.operationType!]!(collection, operation);
      outcomes.push(outcome);
      if (outcome.statusCode >= 400) break;
    }
    return outcomes;
  }

  const handler: Handler = async (account, req, res, { dbId, collId }) => {
    const body = await readJson(req);
    const collection = account.database(dbId!).collection(collId!);
    const refused = refusal(collection, body);
    if (refused) {
      res.statusCode = refused.statusCode;
      return refused.body;
    }
    const operations = body as BatchOperation[];
    const before = snapshot(collection, operations);
    const outcomes = applyUntilFailure(collection, operations);
    const failed = outcomes.at(-1)!;
    if (failed.statusCode < 400) {
      return outcomes.map(({ statusCode, body: resource }) => ({
        statusCode,
        requestCharge: 1,
        eTag: (resource as Document | undefined)?._etag,
        resourceBody: resource,
      }));
    }
    restore(collection, before);
    return operations.map((_, i) => ({ statusCode: i === outcomes.length - 1 ? failed.statusCode : 424, requestCharge: 0 }));
  };
  (load('./handler/batch-documents') as { default: Handler }).default = handler;
}

/** Puts every document back as it was before the batch, and removes those it created. */
function restore(collection: Collection, before: Snapshot[]): void {
  for (const { id, partition, document } of before) {
    if (collection.document(id, partition).read()) collection.documents.delete(id, partition);
    if (document) collection.documents._set(document);
  }
}
