// Code in the docs compiles against the package as users install it. Every ```ts, ```tsx, ```js
// and ```jsx block of README.md and docs/*.md becomes a module of a consumer project beside the
// packed package (installPacked), and `tsc --strict` (skipLibCheck off, module nodenext, JavaScript
// checked too) must find nothing. So a renamed option, a wrong import path or a call that no longer
// fits breaks `npm test`, not a reader's copy of the guide.
//
// A block is left out when:
// - its first line is `// from <path>` (or `<!-- from <path> -->`): test/docs/excerpts.test.ts
//   checks that it is that file's text, which other tests run;
// - the line before its fence is `<!-- run by <test file> -->`: that test reads the block from
//   this guide and runs it (checked here: the file exists and names the guide);
// - the line before its fence is `<!-- not checked: <why> -->` (a sketch for a package this
//   repository does not install, a line of output);
// - its fence says another language (```sh, ```html, ```json, ```text, ...): not code to compile.
// Blocks may use the fragment names of FRAGMENTS below without declaring them (`context`,
// `element`, `options`, ...), as a reader's own code around the snippet would.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPacked, ROOT } from '../support/packed';

const CHECKED = new Set(['ts', 'tsx', 'js', 'jsx']);
const FROM = /^(?:\/\/|<!--) from \S+/;
const NOT_CHECKED = /^<!-- not checked: .+ -->$/;
const RUN_BY = /^<!-- run by (\S+) -->$/;

/** What a snippet may take as given: the reader's own variables around it. */
const FRAGMENTS = `import type { ExperienceContext } from 'engage-sdk';
import type { ProxyOptions } from 'engage-sdk/proxy';
import type { FastifyInstance } from 'fastify';

declare global {
  /** The experience context the page received with the experience. */
  const context: ExperienceContext;
  /** A placement's element, a button inside it. */
  const element: Element;
  const elementWithDataEngageContext: Element;
  const button: HTMLElement;
  /** The proxy's options, as in the guide's first example. */
  const options: ProxyOptions;
  const fastify: FastifyInstance;
  /** The app's own session and UI. */
  const session: { token: string; user?: { id: string } };
  const token: string;
  const signal: AbortSignal;
  function render(rows: unknown[]): void;
  function progressBar(fraction: number, status: string): void;
}
export {};
`;

interface Snippet {
  doc: string;
  line: number;
  lang: string;
  code: string;
}

/** Blocks a test runs instead: `<!-- run by <test file> -->` before the fence. */
const runBy: Array<{ doc: string; line: number; test: string }> = [];

/** The blocks of one Markdown file that this test compiles. */
function snippets(doc: string, text: string): Snippet[] {
  const found: Snippet[] = [];
  const fence = /^```(\w*)[^\n]*\n([\s\S]*?)^```$/gm;
  for (let match; (match = fence.exec(text));) {
    const [, lang, code] = match as unknown as [string, string, string];
    if (!CHECKED.has(lang)) continue;
    if (FROM.test(code.split('\n')[0]!.trim())) continue;
    const before = text.slice(0, match.index).trimEnd().split('\n').pop()!.trim();
    if (NOT_CHECKED.test(before)) continue;
    const run = RUN_BY.exec(before);
    if (run) {
      runBy.push({ doc, line: text.slice(0, match.index).split('\n').length, test: run[1]! });
      continue;
    }
    found.push({ doc, line: text.slice(0, match.index).split('\n').length, lang, code });
  }
  return found;
}

const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .sort()
    .map((file) => `docs/${file}`),
];
const ALL = DOCS.flatMap((doc) => snippets(doc, readFileSync(join(ROOT, doc), 'utf8')));
const fileOf = (snippet: Snippet) => `${snippet.doc.replace(/\W+/g, '_')}_L${snippet.line}.${snippet.lang}`;

let work: string;
let errors: Map<string, string[]>;

beforeAll(() => {
  ({ dir: work } = installPacked('docs'));
  writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'docs-snippets', private: true, type: 'module' }));
  mkdirSync(join(work, 'snippets'));
  writeFileSync(join(work, 'fragments.d.ts'), FRAGMENTS);
  for (const snippet of ALL) writeFileSync(join(work, 'snippets', fileOf(snippet)), `${snippet.code}\nexport {};\n`);
  writeFileSync(
    join(work, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'ES2022',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        types: ['node'],
        jsx: 'react-jsx',
        strict: true,
        skipLibCheck: false,
        allowJs: true,
        checkJs: true,
        noEmit: true,
      },
      files: ['fragments.d.ts', ...ALL.map((snippet) => `snippets/${fileOf(snippet)}`)],
    }),
  );
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', work, '--pretty', 'false'], { encoding: 'utf8' });
  errors = new Map();
  for (const line of tsc.stdout.split('\n')) {
    const at = /^(?:.*\/)?([^/(]+)\((\d+),\d+\): (error TS\d+: .*)$/.exec(line);
    if (!at) continue;
    const key = at[1]!;
    errors.set(key, [...(errors.get(key) ?? []), `line ${at[2]}: ${at[3]}`]);
  }
  // tsc reports syntax errors alone when there are any: a block that does not parse hides the type
  // errors of the others until it is fixed (the run fails either way).
  // An error outside the snippets (the fragments, a declaration of the package) fails every block.
  const elsewhere = [...errors.keys()].filter((file) => !ALL.some((snippet) => fileOf(snippet) === file));
  if (elsewhere.length) throw new Error(`tsc failed outside the snippets:\n${tsc.stdout}`);
}, 120_000);
afterAll(() => (process.env.KEEP_DOCS_WORK ? console.log(work) : rmSync(work, { recursive: true, force: true })));

describe('code blocks in the docs compile against the packed package (tsc --strict, nodenext)', () => {
  it('there are blocks to check', () => expect(ALL.length).toBeGreaterThan(20));

  for (const { doc, line, test } of runBy) {
    it(`${doc}:${line} is run by ${test}, which reads it from ${doc}`, () => {
      expect(existsSync(join(ROOT, test)), `${test} exists`).toBe(true);
      const source = readFileSync(join(ROOT, test), 'utf8');
      expect(
        source.includes(doc) ||
          readdirSync(join(ROOT, 'test/support')).some(
            (file) => source.includes(file.replace(/\.ts$/, '')) && readFileSync(join(ROOT, 'test/support', file), 'utf8').includes(doc),
          ),
        `${test} (or a helper it imports) reads ${doc}`,
      ).toBe(true);
    });
  }

  for (const snippet of ALL) {
    it(`${snippet.doc}:${snippet.line} (${snippet.lang})`, () => {
      expect(errors.get(fileOf(snippet)) ?? [], `${snippet.doc}:${snippet.line}, the block's lines counted from its first line of code`).toEqual([]);
    });
  }
});
