// Rollup plugin: relative imports in the emitted declarations get the extension Node's ESM
// resolution needs (`./errors` → `./errors.js`, `./proxy` → `./proxy/index.js`). TypeScript copies
// our extensionless source specifiers into the .d.ts files as they are, and under `node16` /
// `nodenext` a consumer's tsc then fails inside them (TS2834), or with skipLibCheck loses the
// types. Rewriting the output, not the sources, keeps any layout right without a list of files.
const SPECIFIER = /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]*?)\2/g;

/** @returns {import('rollup').Plugin} */
export default function dtsExtensions() {
  return {
    name: 'dts-extensions',
    generateBundle(_options, bundle) {
      const files = new Set(Object.keys(bundle));
      for (const file of files) {
        if (!file.endsWith('.d.ts')) continue;
        const asset = /** @type {import('rollup').OutputAsset} a declaration is an asset */ (bundle[file]);
        const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : '';
        const text = String(asset.source).replace(SPECIFIER, (match, lead, quote, specifier) => {
          if (/\.(m|c)?js$/.test(specifier)) return match;
          const target = join(dir, specifier);
          if (files.has(`${target}.d.ts`)) return `${lead}${quote}${specifier}.js${quote}`;
          if (files.has(`${target}/index.d.ts`)) return `${lead}${quote}${specifier}/index.js${quote}`;
          this.error(`dts-extensions: ${file} imports '${specifier}', which is no emitted declaration`);
        });
        asset.source = text;
      }
    },
  };
}

/** `dir/` + `../x/./y` resolved, POSIX-style as bundle file names are. */
function join(dir, specifier) {
  const parts = [];
  for (const part of `${dir}${specifier}`.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}
