// Start-up in small tasks (issue 51): at 4× CPU, the script tag's evaluation was one 112-129 ms
// task, most of it work no call in that task needs (localStorage, IndexedDB, delivery, the DOM
// scan). That work is handed to later tasks, a piece each, so the page's own work (input,
// rendering) can run between them. Nothing runs at import: this file is safe on a server.

/**
 * Runs `task` in a later task: through `scheduler.postTask` where it exists (Chromium, Firefox),
 * else `setTimeout`. The function returned cancels it.
 */
export function later(task: () => void): () => void {
  let due: unknown = 1;
  const run = () => due && task();
  const scheduler = (globalThis as { scheduler?: { postTask?(callback: () => void): unknown } }).scheduler;
  if (scheduler?.postTask) scheduler.postTask(run);
  else setTimeout(run);
  return () => (due = 0);
}
