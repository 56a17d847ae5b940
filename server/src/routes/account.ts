import type { AccountDeletion } from '../services/account/account-deletion.js';
import type { AccountExporter } from '../services/account/account-export.js';
import { callerOf } from '../services/call-context.js';
import { type OperationTable, Streamed } from './operation.js';

export interface AccountServices {
  exporter: AccountExporter;
  deletion: AccountDeletion;
}

export function accountOperations({ exporter, deletion }: AccountServices) {
  return {
    exportAccount: async (_body, ctx) => {
      const file = await exporter.open(callerOf(ctx));
      return new Streamed(file.contentType, file.body, file.filename);
    },
    deleteAccount: async (body, ctx) => deletion.delete(callerOf(ctx), body),
  } satisfies OperationTable;
}
