// The baseline build a bench compares this build with, served beside it by the demo stack.
// BASELINE_DIST=<a dist/ directory> uses one already built; otherwise the git ref BASELINE_REF
// (default `main`) is exported with `git archive` into node_modules/.cache and built there with
// this checkout's node_modules (once per commit). BASELINE_REF=none skips it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { repoRoot, startStack } from '../demo/stack.mjs';

/** The dist/ directory of the baseline build, building it when needed; undefined when skipped. */
function baselineDist() {
  if (process.env.BASELINE_DIST) return process.env.BASELINE_DIST;
  const ref = process.env.BASELINE_REF ?? 'main';
  if (ref === 'none') return undefined;
  const sha = execFileSync('git', ['rev-parse', `${ref}^{commit}`], { cwd: repoRoot, encoding: 'utf8' }).trim();
  const dir = join(repoRoot, 'node_modules/.cache/engage-baseline', sha.slice(0, 12));
  if (!existsSync(join(dir, 'dist/index.js'))) {
    console.log(`building the baseline (${ref} = ${sha.slice(0, 12)}) in ${dir} …`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    execFileSync('sh', ['-c', `git archive ${sha} | tar -x -C "${dir}"`], { cwd: repoRoot, stdio: 'inherit' });
    symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'));
    execFileSync(join(repoRoot, 'node_modules/.bin/rollup'), ['-c', '--silent'], { cwd: dir, stdio: 'inherit' });
  }
  return join(dir, 'dist');
}

/**
 * The demo stack (emulator, proxy with no rate limits, this build) with the baseline build's files
 * under /baseline/. @returns {Promise<{ stack: Awaited<ReturnType<typeof startStack>>, baseline: string | undefined }>}
 */
export async function startStackWithBaseline() {
  const baseline = baselineDist();
  const stack = await startStack({
    proxy: { rateLimits: { experienceEvents: {} } },
    routes: async (request) => {
      const { pathname } = new URL(request.url);
      if (!baseline || !pathname.startsWith('/baseline/')) return undefined;
      const path = normalize(join(baseline, pathname.slice('/baseline/'.length)));
      if (!path.startsWith(baseline + sep) || !existsSync(path)) return new Response('Not found', { status: 404 });
      const type = extname(path) === '.js' ? 'text/javascript; charset=utf-8' : 'application/octet-stream';
      return new Response(readFileSync(path), { headers: { 'content-type': type, 'cache-control': 'no-store' } });
    },
  });
  return { stack, baseline };
}
