// engage-sdk as users install it: `npm pack` of this checkout (dist built first, as `npm test`
// does), extracted to `<dir>/node_modules/engage-sdk`. Directories under the repository's .tmp/,
// so what the package imports (and what a consumer app needs: vite, next, react) resolves from the
// repository's node_modules, with no second network install.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

/** A fresh directory under .tmp/ with the packed package installed; returns it and the tarball. */
export function installPacked(name: string): { dir: string; tarball: Uint8Array } {
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, `.tmp/${name}-`));
  const file = execFileSync('npm', ['pack', '--pack-destination', dir, '--ignore-scripts', '--silent'], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').pop()!;
  const modules = join(dir, 'node_modules');
  mkdirSync(modules);
  execFileSync('tar', ['-xzf', join(dir, file), '-C', modules]);
  renameSync(join(modules, 'package'), join(modules, 'engage-sdk'));
  return { dir, tarball: new Uint8Array(readFileSync(join(dir, file))) };
}
