// One definition of each for every module of the tracker, not one per module: a bundle keeps a copy
// of each module's own (issue 51 §3).

/** What a promise's failure or an unset handler is given when there is nothing to do. */
export const noop = () => {};

/** A console line for what the page should know of, prefixed so that it is known for ours. */
export const warn = (error: Error) => console.warn(`engage-sdk: ${error.message}`);
