import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import resolve from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import { rollup } from 'rollup';
const gzip = (c) => gzipSync(c, { level: 9 }).length;
async function bundle(dist, code) {
  const build = await rollup({ input: 'entry', plugins: [{ name: 'entry', resolveId: (id) => (id === 'entry' ? id : id === 'engage-sdk' ? `${dist}/index.js` : null), load: (id) => (id === 'entry' ? code : null) }, resolve({ browser: true }), terser({ ecma: 2020, compress: { passes: 2 } })], external: ['react'], onwarn: () => {} });
  return (await build.generate({ format: 'es' })).output[0].code;
}
for (const dist of process.argv.slice(2)) {
  console.log(dist, {
    iife: gzip(readFileSync(`${dist}/engage.iife.js`)),
    trackerOnly: gzip(await bundle(dist, `import { createTracker } from 'engage-sdk'; window.t = createTracker;`)),
    observe: gzip(await bundle(dist, `import { createTracker, observe } from 'engage-sdk'; window.t = [createTracker, observe];`)),
    inspect: gzip(readFileSync(`${dist}/engage.inspect.js`)),
  });
}
