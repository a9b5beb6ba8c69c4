// A Next.js App Router project in a directory that has the packed engage-sdk (installPacked): the
// route-handler recipe of docs/proxy-node.md mounting the proxy, Next's own tsconfig, and `next` run as its
// users run it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './packed';

const NEXT = join(ROOT, 'node_modules/next/dist/bin/next');

/** The Next.js recipe of docs/proxy-node.md, as a reader copies it. */
export function nextRecipe(): string {
  const readme = readFileSync(join(ROOT, 'docs/proxy-node.md'), 'utf8');
  const match = /```ts\n(\/\/ Next\.js route handler: app\/engage\/\[\.\.\.path\]\/route\.ts[\s\S]*?)```/.exec(readme);
  if (!match) throw new Error('docs/proxy-node.md has no Next.js route-handler recipe');
  return match[1]!;
}

/** Writes package.json, tsconfig.json and the recipe's route handler into `dir`. */
export function prepareNextApp(dir: string): void {
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'engage-next-app', private: true }));
  // Next's own tsconfig, written here: otherwise `next build` runs an npm install of its type
  // packages, which prunes the extracted engage-sdk and reaches the registry mid-test.
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2017',
        lib: ['dom', 'dom.iterable', 'esnext'],
        allowJs: true,
        strict: true,
        noEmit: true,
        module: 'esnext',
        moduleResolution: 'bundler',
        jsx: 'react-jsx',
        isolatedModules: true,
        esModuleInterop: true,
        skipLibCheck: false,
        plugins: [{ name: 'next' }],
      },
      include: ['next-env.d.ts', '.next/types/**/*.ts', '**/*.ts', '**/*.tsx'],
      exclude: ['node_modules'],
    }),
  );
  mkdirSync(join(dir, 'app/engage/[...path]'), { recursive: true });
  writeFileSync(join(dir, 'app/engage/[...path]/route.ts'), nextRecipe());
}

export interface NextProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** `next <args>` in `dir`, as a user runs it (telemetry off). */
export function runNext(dir: string, args: string[], env: Record<string, string> = {}): NextProcess {
  const child = spawn(process.execPath, [NEXT, ...args], { cwd: dir, env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (out += chunk));
  return { child, output: () => out, exited: new Promise((done) => child.once('exit', done)) };
}
