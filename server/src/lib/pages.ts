// Helpers for streams of pages read from the store (exports).

/** Reads the first page at once, so that a failing store is reported before the response starts. */
export async function readAhead<T>(pages: AsyncGenerator<T>): Promise<AsyncIterable<T>> {
  const first = await pages.next();
  return (async function* () {
    if (first.done) return;
    yield first.value;
    yield* pages;
  })();
}

/** Each page with `map` applied to its items. */
export async function* mapPages<A, B>(pages: AsyncIterable<A[]>, map: (item: A) => B): AsyncGenerator<B[]> {
  for await (const page of pages) yield page.map(map);
}
