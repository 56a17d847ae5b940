import type { AuthService } from '../services/auth/auth-service.js';
import type { OperationTable } from './operation.js';

export function authOperations(auth: AuthService) {
  return {
    login: async (body, ctx) => auth.login(body, ctx),
    getMe: async (_body, ctx) => auth.me(ctx),
  } satisfies OperationTable;
}
