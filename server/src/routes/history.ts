import { callerOf } from '../services/call-context.js';
import type { HistoryService } from '../services/history/history-service.js';
import type { ReviewService } from '../services/review/review-service.js';
import type { OperationTable } from './operation.js';

export function historyOperations(history: HistoryService, review: ReviewService) {
  return {
    listHistory: async (body, ctx) => history.list(callerOf(ctx), body),
    reviewValidation: async (body, ctx) => review.review(callerOf(ctx), body),
  } satisfies OperationTable;
}
