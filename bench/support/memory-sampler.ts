// Samples this process's memory while something runs: RSS and the heap as they are (garbage
// included) every 10 ms, and the live heap after a full collection every 250 ms. Needs
// --expose-gc (npm run bench passes it).

export interface MemoryGrowth {
  rssGrowthMb: number;
  heapGrowthMb: number;
  liveGrowthMb: number;
}

/** Starts sampling; `stop()` ends it and gives the peak growth over the start, in MiB. */
export function sampleMemory(): { stop(): MemoryGrowth } {
  const gc = globalThis.gc;
  if (!gc) throw new Error('run with --expose-gc (npm run bench does)');
  gc();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  let peakLive = before.heapUsed;
  const sampler = setInterval(() => {
    const { rss, heapUsed } = process.memoryUsage();
    peakRss = Math.max(peakRss, rss);
    peakHeap = Math.max(peakHeap, heapUsed);
  }, 10);
  const liveSampler = setInterval(() => {
    gc();
    peakLive = Math.max(peakLive, process.memoryUsage().heapUsed);
  }, 250);
  const mb = (value: number) => Math.round((value / 2 ** 20) * 10) / 10;
  return {
    stop() {
      clearInterval(sampler);
      clearInterval(liveSampler);
      return {
        rssGrowthMb: mb(peakRss - before.rss),
        heapGrowthMb: mb(peakHeap - before.heapUsed),
        liveGrowthMb: mb(peakLive - before.heapUsed),
      };
    },
  };
}
