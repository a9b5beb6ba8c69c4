// Start-up in small tasks (issue 51): at 4× CPU, the script tag's evaluation was one 112-129 ms
// task, most of it work no call in that task needs (localStorage, IndexedDB, delivery, the DOM
// scan). That work is handed to later tasks, a piece each, so the page's own work (input,
// rendering) can run between them. Nothing runs at import: this file is safe on a server.

/**
 * Runs `task` in a later task, through `setTimeout`. Not `scheduler.postTask`: touching
 * `scheduler` first, in the script tag's evaluation, cost ~4.5 ms at 4× CPU (Blink makes the
 * object then), and these tasks gain nothing from its priorities. A 0 ms timeout is clamped to
 * 4 ms only past 5 nested timers: the start's pieces run before that depth; autoObserve's walk
 * slices past the fifth wait 4 ms each, time the page gets. The function returned cancels it.
 */
export function later(task: () => void): () => void {
  let due: unknown = 1;
  setTimeout(() => due && task());
  return () => (due = 0);
}
