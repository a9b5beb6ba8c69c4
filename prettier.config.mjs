// Prettier, set to the style the code is already written in: single quotes, semicolons, trailing
// commas, long lines. printWidth 170 is the width that changes the fewest files (measured with
// --list-different over src, test, bench, scripts, demo and configs: 140 → 138 files, 160 → 113,
// 170 → 98, 180 → 99, 200 → 102). Linting is ESLint's (eslint.config.mjs), which leaves layout to this.
/** @type {import('prettier').Config} */
export default {
  printWidth: 170,
  singleQuote: true,
  trailingComma: 'all',
};
