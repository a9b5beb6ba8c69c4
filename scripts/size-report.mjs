// What each part of the tracker costs, from the bundle's own source map.
// Usage: node scripts/size-report.mjs [tracker|observer|iife|delivery|all] [--depth=N]
//
// Bundles the entry the way an app's bundler would (rollup + node-resolve + terser, the options of
// rollup.config.mjs and test/size.test.ts), straight from src/ (TypeScript transpiled per file, so
// the source map points into src/), then attributes every minified byte to the source file and to
// the innermost named function, method or constant around it. For each part it prints the
// minified bytes and its marginal gzip -9 cost: how much smaller the gzipped bundle gets with that
// part's bytes taken out. Marginal costs do not add up to the total (what parts share compresses
// once), which is the point: they say what removing a part would save.
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import resolve from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import { rollup } from 'rollup';
import ts from 'typescript';
import constToLet from './const-to-let.mjs';
import mangleProps from './mangle-props.mjs';
import { IIFE_TARGET, IIFE_TERSER, scriptTagLoadsDurable } from '../rollup.config.mjs';

const root = resolvePath(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRIES = {
  // From the modules rather than src/index.ts: bundled from src/, rollup keeps a spread of the
  // client's campaign field lists that it drops when bundling dist/index.js (what apps import).
  tracker: `import { createTracker } from './src/tracker/create-tracker.ts'; window.t = createTracker;`,
  observer: `import { createTracker } from './src/tracker/create-tracker.ts'; import { observe } from './src/tracker/observe.ts'; window.t = [createTracker, observe];`,
  iife: `import './src/iife.ts';`,
  // What the script tag loads from beside itself as it starts (dist/engage.delivery.js).
  delivery: `import './src/delivery-script.ts';`,
};
const SCRIPTS = ['iife', 'delivery'];
const which = process.argv[2] ?? 'all';
const depth = Number(process.argv.find((a) => a.startsWith('--depth='))?.slice(8) ?? 2);
const gzip = (text) => gzipSync(text, { level: 9 }).length;

/** TypeScript → JS per file with a source map, resolving extensionless relative imports to .ts. */
const typescriptFast = {
  name: 'ts-transpile',
  resolveId(id, importer) {
    if (id === 'entry') return id;
    if (importer && id.startsWith('.')) {
      const base = resolvePath(importer === 'entry' ? root : dirname(importer), id);
      for (const candidate of [base, `${base}.ts`, `${base}/index.ts`]) {
        try {
          if (readFileSync(candidate) && candidate.endsWith('.ts')) return candidate;
        } catch {
          // try the next form
        }
      }
    }
    return null;
  },
  load: (id) => (id === 'entry' ? ENTRIES[current] : null),
  transform(code, id) {
    if (!id.endsWith('.ts')) return null;
    const out = ts.transpileModule(code, {
      fileName: id,
      compilerOptions: {
        target: SCRIPTS.includes(current) ? ts.ScriptTarget[IIFE_TARGET] : ts.ScriptTarget.ES2020,
        module: ts.ModuleKind.ESNext,
        sourceMap: true,
        verbatimModuleSyntax: true,
      },
    });
    return { code: out.outputText.replace(/\/\/# sourceMappingURL=.*$/m, ''), map: out.sourceMapText };
  },
};

let current = 'tracker';
async function build(entry) {
  current = entry;
  const bundle = await rollup({
    input: 'entry',
    plugins: [
      ...(SCRIPTS.includes(entry) ? [scriptTagLoadsDurable()] : []),
      typescriptFast,
      mangleProps(),
      constToLet(),
      resolve({ browser: true }),
      terser(SCRIPTS.includes(entry) ? IIFE_TERSER : { ecma: 2020, compress: { passes: 2 } }),
    ],
    onwarn: () => {},
  });
  const script = SCRIPTS.includes(entry);
  const { output } = await bundle.generate({ format: script ? 'iife' : 'es', strict: !script, sourcemap: true });
  await bundle.close();
  return output[0];
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Decodes a v3 `mappings` string into [genLine, genCol, source, origLine, origCol] segments. */
function decode(mappings) {
  const segments = [];
  let source = 0;
  let line = 0;
  let col = 0;
  mappings.split(';').forEach((group, genLine) => {
    let genCol = 0;
    for (const segment of group.split(',')) {
      if (!segment) continue;
      const values = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = B64.indexOf(char);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value & 1 ? -(value >> 1) : value >> 1);
          value = 0;
          shift = 0;
        }
      }
      genCol += values[0];
      if (values.length >= 4) {
        source += values[1];
        line += values[2];
        col += values[3];
        segments.push([genLine, genCol, source, line, col]);
      } else segments.push([genLine, genCol, -1, 0, 0]);
    }
  });
  return segments;
}

/** Named regions of a source file: functions, methods, classes, constants, object members. */
const regionCache = new Map();
function regions(file) {
  if (regionCache.has(file)) return regionCache.get(file);
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    regionCache.set(file, { sf: undefined, list: [] });
    return regionCache.get(file);
  }
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const list = [];
  const visit = (node, names) => {
    let name;
    if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node) || ts.isMethodDeclaration(node) || ts.isPropertyAssignment(node)) && node.name)
      name = node.name.getText(sf);
    else if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name)) name = node.name.text;
    const path = name ? [...names, name] : names;
    if (name && path.length <= depth) list.push({ start: node.getStart(sf), end: node.end, path: path.join(' › ') });
    ts.forEachChild(node, (child) => visit(child, path));
  };
  visit(sf, []);
  regionCache.set(file, { sf, list });
  return regionCache.get(file);
}

function partOf(file, line, col) {
  const { sf, list } = regions(file);
  if (!sf) return '(library)';
  let pos;
  try {
    pos = sf.getPositionOfLineAndCharacter(line, col);
  } catch {
    return '(top level)';
  }
  let best;
  for (const region of list) if (region.start <= pos && pos < region.end && (!best || region.start >= best.start)) best = region;
  return best ? best.path : '(top level)';
}

async function report(entry) {
  const chunk = await build(entry);
  const code = chunk.code;
  const lines = code.split('\n');
  const lineStart = [];
  let offset = 0;
  for (const line of lines) {
    lineStart.push(offset);
    offset += line.length + 1;
  }
  const owner = new Array(code.length).fill('(glue)');
  const map = /** @type {import('rollup').SourceMap} generated with sourcemap: true */ (chunk.map);
  const sources = map.sources.map((s) => resolvePath(dirname(resolvePath(root, 'entry')), s));
  const segments = decode(map.mappings);
  for (let i = 0; i < segments.length; i++) {
    const [genLine, genCol, source, origLine, origCol] = segments[i];
    const next = segments[i + 1];
    const start = lineStart[genLine] + genCol;
    const end = next && next[0] === genLine ? lineStart[genLine] + next[1] : lineStart[genLine] + lines[genLine].length;
    if (source < 0) continue;
    const file = sources[source];
    const rel = relative(root, file).replace(/^node_modules\//, '');
    const label = rel.startsWith('src/') ? `${rel}\t${partOf(file, origLine, origCol)}` : `${rel.split('/')[0]}\t(library)`;
    for (let p = start; p < end; p++) owner[p] = label;
  }
  const total = gzip(code);
  const groups = new Map();
  owner.forEach((label, p) => {
    const file = label.split('\t')[0];
    for (const key of new Set([`${file}\t`, label.includes('\t') ? label : `${file}\t`])) {
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(p);
    }
  });
  const cost = (positions) => {
    const taken = new Set(positions);
    let rest = '';
    for (let p = 0; p < code.length; p++) if (!taken.has(p)) rest += code[p];
    return total - gzip(rest);
  };
  const rows = [...groups].map(([key, positions]) => {
    const [file, part] = key.split('\t');
    return { file, part, min: positions.length, gzip: cost(positions) };
  });
  const files = rows.filter((r) => !r.part).sort((a, b) => b.min - a.min);
  console.log(`\n## ${entry}: ${code.length} B minified, ${total} B gzip -9\n`);
  console.log('| part | minified B | gzip -9 B (marginal) |\n|---|---:|---:|');
  for (const file of files) {
    console.log(`| **${file.file}** | **${file.min}** | **${file.gzip}** |`);
    const parts = rows.filter((r) => r.file === file.file && r.part && r.part !== '(library)').sort((a, b) => b.min - a.min);
    if (parts.length > 1) for (const part of parts) if (part.min >= 40) console.log(`| &nbsp;&nbsp;${part.part} | ${part.min} | ${part.gzip} |`);
  }
}

for (const entry of which === 'all' ? Object.keys(ENTRIES) : [which]) {
  try {
    await report(entry);
  } catch (error) {
    console.log(`\n## ${entry}: not built (${/** @type {Error} */ (error).message.split('\n')[0]})`);
  }
}
