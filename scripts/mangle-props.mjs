// A rollup plugin that renames the `_`-prefixed properties of our own modules through the map
// pinned in mangle.json (issue 48, Preact's habit): the source says `delivery._flush()`, every
// build ships `delivery.c()`. One map for every build (the script tag, its inspector, the service
// worker and the ESM files a site's bundler takes as they are), so bundles built apart agree on
// the names they share: the script tag's tracker and engage.inspect.js talk through `_tap`.
//
// Why not terser's `mangle.properties`: it renames in minified output only, and the ESM build must
// stay readable (a site's bundler minifies it, and does not mangle our properties); terser also
// does not check a cached name against the unmangled properties of the code it minifies. This
// rewrites property names only (members, object keys, patterns, class members), in the module
// after TypeScript, with a source map; everything else stays as written.
//
// What is never renamed has no `_`: the public API, what IndexedDB holds, the service worker's
// message, the wire. docs/contributing.md says how to name a member.
//
// A `_` name with no pinned mapping fails the build; `npm run build:mangle` adds it (and drops the
// names no source uses any more). Pinned names never change.
import { readFileSync, writeFileSync } from 'node:fs';
import MagicString from 'magic-string';

export const MANGLE_FILE = new URL('../mangle.json', import.meta.url);
/** Property names that are ours to rename. `__proto__` and other `__` names are not. */
export const INTERNAL = /^_[^_]/;

/**
 * Names a mangled name must never be: built-ins every object or function has. The plain property
 * names of our sources are added as the build sees them (see `check`).
 */
const BUILT_IN = new Set(
  'length name prototype caller arguments constructor call apply bind toString toJSON valueOf then catch finally done value next get set has add delete size'.split(' '),
);

/** @typedef {{ help?: string[]; reserved: string[]; props: Record<string, string> }} MangleFile */

/** @returns {MangleFile} */
export function readMangleFile() {
  return JSON.parse(readFileSync(MANGLE_FILE, 'utf8'));
}

/** Every node under `node` (ESTree), depth first. */
function walk(node, visit) {
  visit(node);
  for (const key in node) {
    const value = node[key];
    if (Array.isArray(value)) {
      for (const child of value) if (child && typeof child.type === 'string') walk(child, visit);
    } else if (value && typeof value.type === 'string') walk(value, visit);
  }
}

/**
 * The property names a module uses, by where they appear: `internal` are ours to rename (with the
 * nodes to rewrite), `plain` are every other non-computed property name.
 *
 * @param {import('estree').Program} ast
 */
export function propertyNames(ast) {
  /** @type {Array<{ name: string; start: number; end: number; shorthand: boolean }>} */
  const internal = [];
  const plain = new Set();
  const see = (key, shorthand = false) => {
    if (key.type !== 'Identifier' && key.type !== 'PrivateIdentifier') return;
    if (INTERNAL.test(key.name) && key.type === 'Identifier') internal.push({ name: key.name, start: key.start, end: key.end, shorthand });
    else plain.add(key.name);
  };
  walk(ast, (node) => {
    if (node.type === 'MemberExpression' && !node.computed) see(node.property);
    else if (node.type === 'Property' && !node.computed) see(node.key, node.shorthand);
    else if ((node.type === 'MethodDefinition' || node.type === 'PropertyDefinition') && !node.computed) see(node.key);
  });
  return { internal, plain };
}

/** The next name after `index` that is free: a, b, … z, A … Z, aa, ab … */
function nameAt(index) {
  const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  let name = '';
  for (let n = index; ; n = Math.floor(n / letters.length) - 1) {
    name = letters[n % letters.length] + name;
    if (n < letters.length) return name;
  }
}

/**
 * The plain property names of every module under src/ (TypeScript compiled to JavaScript first):
 * what a new pinned name must not be, whichever bundle its object ends up in.
 *
 * @param {(code: string) => import('estree').Program} parse
 */
async function plainNamesOfSources(parse) {
  const { default: ts } = await import('typescript');
  const { readdirSync } = await import('node:fs');
  const root = new URL('../src/', import.meta.url);
  const names = new Set();
  for (const entry of readdirSync(root, { recursive: true })) {
    const path = String(entry);
    if (!path.endsWith('.ts') || path.endsWith('.d.ts')) continue;
    const { outputText } = ts.transpileModule(readFileSync(new URL(path, root), 'utf8'), {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    });
    propertyNames(parse(outputText)).plain.forEach((name) => names.add(name));
  }
  return names;
}

// One state for every build of a `rollup -c` run (the config is an array of four): each pinned
// name is given once, and the check sees every module of every build.
let shared;

/**
 * @param {{ update?: boolean }} [options] `update`: pin a name for each new `_` name (and drop
 *   unused ones) instead of failing; mangle.json is written when each build ends
 * @returns {import('rollup').Plugin}
 */
export default function mangleProps({ update = false } = {}) {
  if (!shared) {
    const file = readMangleFile();
    shared = {
      file,
      reserved: new Set(file.reserved),
      pinned: new Map(Object.entries(file.props).map(([key, value]) => [key.slice(1), value])),
      used: new Set(),
      plain: new Set(BUILT_IN),
      scanned: undefined,
    };
  }
  const state = shared;
  const include = (id) => /[\\/]src[\\/].*\.ts$/.test(id) && !id.endsWith('.d.ts');

  return {
    name: 'mangle-props',
    async buildStart() {
      if (update) (await (state.scanned ??= plainNamesOfSources((code) => this.parse(code)))).forEach((name) => state.plain.add(name));
    },
    transform(code, id) {
      if (!include(id)) return null;
      const names = propertyNames(this.parse(code));
      names.plain.forEach((name) => state.plain.add(name));
      if (!names.internal.length) return null;
      const out = new MagicString(code);
      for (const { name, start, end, shorthand } of names.internal) {
        if (state.reserved.has(name)) continue;
        state.used.add(name);
        let mapped = state.pinned.get(name);
        if (!mapped) {
          if (!update) this.error(`mangle-props: ${name} (${id}) has no pinned name in mangle.json: run \`npm run build:mangle\` and commit mangle.json`);
          const taken = new Set(state.pinned.values());
          let index = 0;
          while (taken.has(nameAt(index)) || state.plain.has(nameAt(index))) index++;
          state.pinned.set(name, (mapped = nameAt(index)));
        }
        out.overwrite(start, end, shorthand ? `${mapped}: ${name}` : mapped);
      }
      return { code: out.toString(), map: out.generateMap({ hires: true }) };
    },
    buildEnd(error) {
      if (error) return;
      // A pinned name that is also a plain property of ours could meet it on one object (the
      // script tag's `Engage` is the tracker's members and the pre-load queue `q`).
      for (const [name, mapped] of state.pinned) {
        if (state.plain.has(mapped) && state.used.has(name))
          this.error(`mangle-props: ${name} is pinned to "${mapped}", which is also a plain property name in the sources: pin it to another name in mangle.json`);
      }
      if (!update) return;
      const props = {};
      for (const [name, mapped] of [...state.pinned].sort(([a], [b]) => a.localeCompare(b))) if (state.used.has(name)) props[`$${name}`] = mapped;
      writeFileSync(MANGLE_FILE, `${JSON.stringify({ ...state.file, props }, null, 2)}\n`);
    },
  };
}
