// Child-process entry for runIsolated: calls one export of one module and sends back what it returns.
interface Task {
  module: string;
  exportName: string;
  args: unknown[];
}

process.once('message', async (task: Task) => {
  const loaded = (await import(task.module)) as Record<string, (...args: unknown[]) => unknown>;
  const value = await loaded[task.exportName]!(...task.args);
  process.send!(value, () => process.exit(0));
});
