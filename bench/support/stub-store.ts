// A stand-in for Cosmos DB for one benchmark row only: the server's own code over containers held in
// maps in its process, with no HTTP, no SDK and no emulator, so that "validate with the store
// stubbed" shows what the rest of a request costs. It answers the point operations, patches and
// batches of the write path; queries find nothing. Never used by the server or the tests.
import type { CosmosStore } from '../../server/src/cosmos/cosmos.js';

type Container = ReturnType<CosmosStore['container']>;

type Document = Record<string, unknown> & { id: string; _etag?: string };
interface PatchStep {
  op: string;
  path: string;
  value?: unknown;
}

class StoreError extends Error {
  constructor(readonly code: number) {
    super(`stub store: ${code}`);
  }
}

function applyPatch(document: Document, steps: PatchStep[]): Document {
  const next = structuredClone(document);
  for (const { op, path, value } of steps) {
    const keys = path.slice(1).split('/');
    const last = keys.pop()!;
    let parent = next as Record<string, unknown>;
    for (const key of keys) parent = parent[key] as Record<string, unknown>;
    if (op === 'incr') parent[last] = ((parent[last] as number | undefined) ?? 0) + (value as number);
    else if (op === 'remove') delete parent[last];
    else parent[last] = value;
  }
  return next;
}

function stubContainer(): Container {
  const documents = new Map<string, Document>();
  let etags = 0;
  const key = (partition: unknown, id: string) => `${String(partition)}\u0000${id}`;
  const partitionOf = (document: Document) => document.customer_id;
  const write = (partition: unknown, document: Document) => {
    const stored = { ...structuredClone(document), _etag: `"${++etags}"` };
    documents.set(key(partition, document.id), stored);
    return stored;
  };
  const read = (partition: unknown, id: string) => documents.get(key(partition, id));
  const guard = (current: Document | undefined, ifMatch: string | undefined) => {
    if (!current) throw new StoreError(404);
    if (ifMatch && current._etag !== ifMatch) throw new StoreError(412);
  };
  const operations = {
    create(partition: unknown, body: Document) {
      if (read(partition, body.id)) throw new StoreError(409);
      return write(partition, body);
    },
    replace(partition: unknown, id: string, body: Document, ifMatch?: string) {
      guard(read(partition, id), ifMatch);
      return write(partition, body);
    },
    patch(partition: unknown, id: string, steps: PatchStep[], ifMatch?: string) {
      const current = read(partition, id);
      guard(current, ifMatch);
      return write(partition, applyPatch(current!, steps));
    },
  };
  /** One operation of a batch: the document it wrote or read, none for a delete. */
  const applyBatchOperation = (op: Record<string, unknown>, partition: unknown): Document | undefined => {
    const body = op.resourceBody as Document;
    const id = (op.id as string | undefined) ?? body.id;
    const ifMatch = op.ifMatch as string | undefined;
    switch (op.operationType) {
      case 'Create':
        return operations.create(partition, body);
      case 'Replace':
        return operations.replace(partition, id, body, ifMatch);
      case 'Upsert':
        return write(partition, body);
      case 'Patch': {
        const steps = Array.isArray(op.resourceBody) ? op.resourceBody : (op.resourceBody as { operations: PatchStep[] }).operations;
        return operations.patch(partition, id, steps as PatchStep[], ifMatch);
      }
      case 'Delete':
        guard(read(partition, id), ifMatch);
        documents.delete(key(partition, id));
        return undefined;
      default:
        return read(partition, id);
    }
  };
  const respond = (resource: Document | undefined) => ({ resource, etag: resource?._etag });
  const item = (id: string, partition: unknown) => ({
    read: async () => respond(read(partition, id)),
    replace: async (body: Document, options?: { accessCondition?: { condition: string } }) =>
      respond(operations.replace(partition, id, body, options?.accessCondition?.condition)),
    patch: async (body: PatchStep[] | { operations: PatchStep[] }, options?: { accessCondition?: { condition: string } }) =>
      respond(operations.patch(partition, id, Array.isArray(body) ? body : body.operations, options?.accessCondition?.condition)),
    delete: async () => {
      guard(read(partition, id), undefined);
      documents.delete(key(partition, id));
      return {};
    },
  });
  const nothingFound = {
    fetchAll: async () => ({ resources: [] }),
    fetchNext: async () => ({ resources: [] }),
    hasMoreResults: () => false,
  };
  return {
    item,
    items: {
      create: async (body: Document) => respond(operations.create(partitionOf(body), body)),
      upsert: async (body: Document) => respond(write(partitionOf(body), body)),
      query: () => nothingFound,
      batch: async (batch: Record<string, unknown>[], partition: unknown) => {
        const before = new Map(documents);
        const result = [];
        for (const op of batch) {
          try {
            const written = applyBatchOperation(op, partition);
            result.push({ statusCode: op.operationType === 'Create' ? 201 : 200, eTag: written?._etag, resourceBody: written });
          } catch (error) {
            documents.clear();
            for (const [k, v] of before) documents.set(k, v);
            const failed = result.length;
            return { result: batch.map((_, i) => ({ statusCode: i === failed ? (error as StoreError).code : 424 })) };
          }
        }
        return { result };
      },
    },
  } as unknown as Container;
}

/** A CosmosStore whose containers live in this process's memory. */
export function stubStore(): CosmosStore {
  const containers = new Map<string, Container>();
  return {
    database: {} as CosmosStore['database'],
    endpoint: 'stub://in-process',
    embedded: true,
    container(name) {
      if (!containers.has(name)) containers.set(name, stubContainer());
      return containers.get(name)!;
    },
    ping: async () => true,
    close: async () => {},
  };
}
