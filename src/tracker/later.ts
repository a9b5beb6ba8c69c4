// Start-up in small tasks (issue 51): at 4× CPU, the script tag's evaluation was one 112-129 ms
// task, most of it work no call in that task needs (localStorage, IndexedDB, delivery, the DOM
// scan). That work is handed to later tasks, a piece each, so the page's own work (input,
// rendering) can run between them. Nothing runs at import: this file is safe on a server.

/**
 * Runs `task` in a later task, through `setTimeout`. Not `scheduler.postTask`: touching
 * `scheduler` first, in the script tag's evaluation, cost ~4.5 ms at 4× CPU (Blink makes the
 * object then), and these tasks gain nothing from its priorities; a 0 ms timeout is not clamped
 * at the depth these run (under 5 nested timers). The function returned cancels it.
 */
export function later(task: () => void): () => void {
  let due: unknown = 1;
  setTimeout(() => due && task());
  return () => (due = 0);
}
