// A tenant with something of everything, made through the API as a client would (users, a source
// group with an uploaded file, a template, validations with their audit events), and many more
// history records cloned from a real one straight into the store.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { Container, JSONObject, OperationInput } from '@azure/cosmos';
import type { HistoryItem } from '../../src/cosmos/history-store.js';
import { newId } from '../../src/lib/ids.js';
import type { TestServer } from '../support/harness.js';

export const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

export interface Seeded {
  groupId: string;
  fileSha256: string;
  /** Null for a tenant without the document_templates feature. */
  templateId: string | null;
  templateSha256: string | null;
  validationIds: string[];
}

export async function seedTenant(server: TestServer, token: string, { templates = true } = {}): Promise<Seeded> {
  const call = async (path: string, body: object) => {
    const reply = await server.call(path, body, { token });
    assert.equal(reply.status, 200, `${path}: ${reply.text}`);
    return reply.body;
  };
  const put = async (presigned: { upload_url: string; method: string; headers: Record<string, string> }, bytes: Uint8Array) => {
    const reply = await fetch(presigned.upload_url, { method: presigned.method, headers: presigned.headers, body: new Uint8Array(bytes) });
    assert.equal(reply.status, 201, await reply.text());
  };

  const fileBytes = new TextEncoder().encode('Leave policy. Full-time staff get 25 days of paid leave a year.');
  const group = await call('/api/v1/sources/group/save', {
    name: `Handbook ${Math.random().toString(36).slice(2)}`,
    allowed_roles: ['hr'],
  });
  await put(
    await call('/api/v1/sources/upload-url', {
      group_id: group.group_id,
      file_name: 'leave.txt',
      content_type: 'text/plain',
      size_bytes: fileBytes.length,
    }),
    fileBytes,
  );
  const listed = await call('/api/v1/sources', {});
  const file = listed.data.find((g: { group_id: string }) => g.group_id === group.group_id).files[0];
  assert.equal(file.status, 'ready');

  const templateBytes = new TextEncoder().encode('# Answer\n\nDear {{name}}, you have {{days}} days left.\n');
  let templateId: string | null = null;
  if (templates) {
    const template = await call('/api/v1/templates/upload-url', {
      name: 'Answer',
      file_name: 'answer.md',
      content_type: 'text/markdown',
      size_bytes: templateBytes.length,
    });
    await put(template, templateBytes);
    assert.equal((await call(`/api/v1/templates/${template.template_id}`, {})).status, 'uploaded');
    templateId = template.template_id;
  }

  const validationIds: string[] = [];
  for (const answer of ['Staff get 25 days.', 'Staff get 30 days.']) {
    const validated = await call('/api/v1/validate', {
      mode: 'validate',
      question: 'How many days of leave do staff get?',
      chatbot_response: answer,
      source_groups: [group.group_id],
    });
    validationIds.push(validated.validation_id);
  }
  return {
    groupId: group.group_id,
    fileSha256: file.sha256,
    templateId,
    templateSha256: templateId ? sha256(templateBytes) : null,
    validationIds,
  };
}

/** Writes `count` copies of a stored validation record under new ids, 100 to a transactional batch. */
export async function cloneHistory(history: Container, customerId: string, validationId: string, count: number): Promise<void> {
  const { resource } = await history.item(validationId, customerId).read<HistoryItem>();
  assert.ok(resource, `no record ${validationId}`);
  const { _rid, _self, _etag, _attachments, _ts, ...original } = resource as unknown as Record<string, unknown>;
  const start = Date.parse(original.created_at as string);
  for (let done = 0; done < count; done += 100) {
    const operations: OperationInput[] = [];
    for (let i = done; i < Math.min(count, done + 100); i += 1) {
      const createdAt = new Date(start - (i + 1) * 1000);
      const id = newId('val', createdAt.getTime());
      operations.push({
        operationType: 'Create',
        partitionKey: customerId,
        resourceBody: { ...original, id, validation_id: id, created_at: createdAt.toISOString() } as JSONObject,
      });
    }
    const response = await history.items.batch(operations, customerId);
    assert.ok(
      response.result?.every((r) => r.statusCode < 300),
      'history seed batch failed',
    );
  }
}
