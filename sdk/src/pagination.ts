// Async iteration over the contract's cursor pages: pass `next_cursor` back as `cursor` while `has_more`.

export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/** Yields every item of every page, fetching the next page only when the previous one is used up. */
export async function* iteratePages<T, Q extends { cursor?: string }>(
  fetchPage: (query: Q) => Promise<Page<T>>,
  query: Q,
): AsyncGenerator<T, void, undefined> {
  let next: Q = query;
  for (;;) {
    const page = await fetchPage(next);
    yield* page.data;
    if (!page.has_more || !page.next_cursor || page.next_cursor === next.cursor) return;
    next = { ...next, cursor: page.next_cursor };
  }
}
