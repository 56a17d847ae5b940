import { principalOf } from '../http/context.js';
import type { AuthService } from '../services/auth-service.js';
import type { RouteTable } from './route-table.js';

export function authRoutes(auth: AuthService): RouteTable {
  return {
    login: async (req, res) => {
      res.json(await auth.login(req.body, req.ip ?? 'unknown'));
    },
    getMe: (req, res) => {
      res.json(auth.me(principalOf(req.ctx)));
    },
  };
}
