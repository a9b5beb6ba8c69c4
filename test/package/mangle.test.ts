// Internal names (issue 48): the sources name internal members `_like_this`, every build renames
// them through the map pinned in mangle.json (scripts/mangle-props.mjs). What this guards:
// - mangle.json is what the build would pin: every `_` name of the sources has a pinned name, none
//   is left over, and no pinned name is one the build would refuse (a plain property of ours);
// - two `_` members of one object never share a pinned name (the map reuses short names across
//   objects that never meet: checked here on every object type of the sources, by the type checker);
// - no `_` name is left in what ships to a browser, and none in the public declarations;
// - what must never be renamed is still there by its name: IndexedDB's database, store and
//   record fields, the service worker's message tag, the query parameters. That a queue written
//   by the previous release is read and delivered by this one is shown in real browsers
//   (test/browsers/old-queue.ts).
// Runs on the build (`npm run build`).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parseAst } from 'rollup/parseAst';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import mangleProps, { INTERNAL, propertyNames, readMangleFile } from '../../scripts/mangle-props.mjs';
import { ROOT } from '../support/packed';

const file = readMangleFile();
const pinned = new Map(Object.entries(file.props).map(([key, value]) => [key.slice(1), value]));
const reserved = new Set(file.reserved);
const SRC = join(ROOT, 'src');
const sources = readdirSync(SRC, { recursive: true })
  .map(String)
  .filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))
  .map((path) => join(SRC, path));

/** Each source as the build sees it: TypeScript's JavaScript, parsed by rollup. */
const names = sources.map((path) => {
  const { outputText } = ts.transpileModule(readFileSync(path, 'utf8'), { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } });
  return { path, ...propertyNames(parseAst(outputText)) };
});

describe('mangle.json', () => {
  it('pins a name for every `_` name of the sources, and for nothing else', () => {
    const used = new Set(names.flatMap((source) => source.internal.map((at) => at.name)).filter((name) => !reserved.has(name)));
    expect([...pinned.keys()].sort()).toEqual([...used].sort());
    for (const [name, mapped] of pinned) {
      expect(name).toMatch(INTERNAL);
      expect(mapped, name).toMatch(/^[A-Za-z$][\w$]*$/);
    }
  });

  // What crosses bundles built apart: the tracker's tap (on the script tag's `Engage.tracker`, or
  // an app's tracker) and its reports, read by an inspector or an `onLifecycle` of another bundle,
  // which may come from another release (a CDN's cached engage.inspect.js beside a new
  // engage.iife.js). These names are released: changing one breaks that pairing.
  const RELEASED: Record<string, string> = {
    _tap: 'i',
    _attach: 't',
    _report: 'o',
    _url: 'e',
    _customerId: 't',
    _consent: 'r',
    _listener: 'o',
    _buffered: 'r',
    _subscribers: 'e',
    _history: 't',
    _stage: 'e',
    _event: 't',
    _events: 't',
    _status: 'r',
    _error: 'o',
    _response: 'a',
    _expired: 'r',
    _reason: 't',
    _count: 'r',
    _element: 't',
    _context: 'r',
    _sight: 'm',
    _counted: 'a',
    _uuid: 'o',
  };

  it('keeps every released name: what the tracker and an inspector built apart read of each other', () => {
    expect(Object.fromEntries(Object.keys(RELEASED).map((name) => [name, pinned.get(name)]))).toEqual(RELEASED);
  });

  it('pins no name that is also a plain property name of the sources', () => {
    const plain = new Set(names.flatMap((source) => [...source.plain]));
    expect([...pinned].filter(([, mapped]) => plain.has(mapped))).toEqual([]);
  });

  // A type-checked program of src/: 9 s alone, 20 s beside other suites on 2 cores (CPU only); a budget, not a timed assertion.
  it('never gives two `_` members of one object type the same name (checked on every object type of the sources)', { timeout: 60_000 }, () => {
    const program = ts.createProgram(sources, {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      strict: true,
      noEmit: true,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    });
    const checker = program.getTypeChecker();
    const clashes = new Set<string>();
    const checkType = (type: ts.Type, where: string) => {
      for (const part of type.isUnion() ? type.types : [type]) {
        const byName = new Map<string, string>();
        for (const property of checker.getPropertiesOfType(part)) {
          const name = property.getName();
          const mapped = INTERNAL.test(name) && !reserved.has(name) ? pinned.get(name) : name;
          if (mapped === undefined) continue;
          const other = byName.get(mapped);
          if (other !== undefined && other !== name) clashes.add(`${where}: ${other} and ${name} are both "${mapped}"`);
          byName.set(mapped, name);
        }
      }
    };
    let checked = 0;
    for (const source of program.getSourceFiles()) {
      if (!source.fileName.startsWith(SRC)) continue;
      const visit = (node: ts.Node) => {
        if (
          ts.isObjectLiteralExpression(node) ||
          ts.isInterfaceDeclaration(node) ||
          ts.isTypeLiteralNode(node) ||
          ts.isTypeAliasDeclaration(node) ||
          ts.isIntersectionTypeNode(node)
        ) {
          checkType(
            checker.getTypeAtLocation(ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) ? node.name : node),
            `${relative(ROOT, source.fileName)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`,
          );
          checked++;
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(checked).toBeGreaterThan(100);
    expect([...clashes]).toEqual([]);
  });
});

describe('the plugin', () => {
  /** Runs the plugin's transform on `code` as a module of src/, the way rollup calls it. */
  const transform = (code: string) => {
    const hook = mangleProps().transform as (this: unknown, code: string, id: string) => { code: string } | null;
    return hook.call(
      {
        parse: parseAst,
        error: (message: string) => {
          throw new Error(message);
        },
      },
      code,
      join(SRC, 'tracker/example.ts'),
    )?.code;
  };

  it('fails the build on a `_` name with no pinned name, and says how to pin it', () => {
    expect(() => transform('queue._notPinnedYet();')).toThrow(/_notPinnedYet .* no pinned name in mangle.json: run `npm run build:mangle`/);
  });

  it('renames members, keys, shorthand keys and destructuring patterns; leaves strings, reserved and plain names', () => {
    const claim = pinned.get('_claim')!;
    const out = transform(
      "const { _claim, _query: query = 1 } = drops; drops._claim(); f({ _claim, _sent: 1, sent: 2 }); socket._httpMessage; '_claim' in drops; drops?._claim();",
    )!;
    expect(out).toBe(
      `const { ${claim}: _claim, ${pinned.get('_query')}: query = 1 } = drops; drops.${claim}(); f({ ${claim}: _claim, ${pinned.get('_sent')}: 1, sent: 2 }); socket._httpMessage; '_claim' in drops; drops?.${claim}();`,
    );
  });
});

describe('the build', () => {
  const dist = join(ROOT, 'dist');
  beforeAll(() => {
    if (!existsSync(join(dist, 'index.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  });

  /** A file and the chunks it imports, transitively. */
  const withChunks = (entry: string): string[] => {
    const seen = new Set<string>();
    const add = (path: string) => {
      if (seen.has(path)) return;
      seen.add(path);
      // Static imports, and the chunks loaded later (`import('./durable-….js')`, issue 51).
      for (const [, specifier] of readFileSync(path, 'utf8').matchAll(/\b(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)) add(join(dirname(path), specifier!));
    };
    add(join(dist, entry));
    return [...seen];
  };
  const shipped = [
    'engage.iife.js',
    'engage.delivery.js',
    'engage.inspect.js',
    'engage-sw.js',
    ...['index.js', 'inspect.js', 'react.js'].flatMap(withChunks).map((path) => relative(dist, path)),
  ];

  it('leaves no `_` member in anything a browser runs: both files of the script tag, its inspector, the worker, and the ESM files a bundler takes as they are', () => {
    expect(shipped.length).toBeGreaterThan(6);
    for (const path of new Set(shipped)) {
      const left = [...readFileSync(join(dist, path), 'utf8').matchAll(/(?:\?\.|\.)\s*(_[A-Za-z]\w*)|[{,]\s*(_[A-Za-z]\w*)\s*:/g)].map((match) => match[1] ?? match[2]);
      expect(
        left.filter((name) => !reserved.has(name!)),
        path,
      ).toEqual([]);
    }
  });

  it('keeps the ESM files readable: names and layout of the source, only `_` members renamed', () => {
    const delivery = readFileSync(
      withChunks('index.js').find((path) => readFileSync(path, 'utf8').includes('function createDelivery'))!,
      'utf8',
    );
    expect(delivery).toContain(`drops.${pinned.get('_claim')}()`);
    expect(delivery).toContain('async function deliverAll()');
  });

  it('exposes no `_` name in the declarations the package exports', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    const entries = new Set<string>();
    const collect = (value: unknown): void => {
      if (typeof value !== 'object' || value === null) return;
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'types' && typeof inner === 'string') entries.add(join(ROOT, inner));
        else collect(inner);
      }
    };
    collect(pkg.exports);
    const seen = new Set<string>();
    const visit = (path: string) => {
      if (seen.has(path)) return;
      seen.add(path);
      const text = readFileSync(path, 'utf8');
      const leaked = [...text.matchAll(/^\s*(?:readonly\s+)?(_[A-Za-z]\w*)\??\s*[:(]/gm)].map((match) => match[1]);
      expect(leaked, relative(ROOT, path)).toEqual([]);
      for (const [, specifier] of text.matchAll(/\bfrom\s*["'](\.{1,2}\/[^"']+)["']|import\(["'](\.{1,2}\/[^"']+)["']\)/g)) {
        if (specifier) visit(join(dirname(path), specifier.replace(/\.js$/, '.d.ts')));
      }
    };
    entries.forEach(visit);
    expect(seen.size).toBeGreaterThan(entries.size);
  });

  it('keeps by name what reaches storage, the wire or the worker: IndexedDB names and fields, the query, the sync tag', () => {
    // The script tag: its two files (the queue and delivery are engage.delivery.js).
    const script = ['engage.iife.js', 'engage.delivery.js'].map((file) => readFileSync(join(dist, file), 'utf8')).join('\n');
    const worker = readFileSync(join(dist, 'engage-sw.js'), 'utf8');
    for (const code of [script, worker]) {
      // The queue's database and store, a segment's key and the loss report's record (event-queue.ts, drop-counts.ts).
      for (const name of ['"engage-sdk-v1"', '"queue"', 'drops:', '.recordedAt', '.uuid', 'sent_at=', '&drops=']) expect(code).toContain(name);
      // A stored event's fields, read back into the request body (batch.ts).
      for (const field of ['customerId', 'attributes', 'offset', 'time', 'action']) expect(code).toMatch(new RegExp(`\\.${field}\\b`));
    }
    // A stored event is written with these fields (experience-event.ts): a minified name may be `$`,
    // and the attributes a call (attributesOf).
    expect(script).toMatch(/uuid:[\w$]+\(\),action:[\w$]+,time:/);
    expect(script).toMatch(/customerId:[\w$]+,attributes:[\w$]+(\([\w$,]*\))?,recordedAt:[\w$]+/);
    // The worker's message: [tag, url, options] under the tag `engage-sdk:<namespace>`.
    expect(script).toContain('"engage-sdk:"');
    expect(worker).toContain('"engage-sdk:"');
    expect(worker).toContain('"engage-sdk-sw-v1"');
  });
});
