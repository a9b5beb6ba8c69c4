// Links between the docs lead somewhere: every relative link of README.md, docs/*.md and the folder
// READMEs names a file that exists and, with a #fragment into a Markdown file, one of its headings
// (GitHub's slugs). Moving a section out of a guide then breaks `npm test`, not a reader's click.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/packed';

const DOCS = [
  'README.md',
  'CHANGELOG.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
  ...readdirSync(join(ROOT, 'src'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(ROOT, 'src', entry.name, 'README.md')))
    .map((entry) => `src/${entry.name}/README.md`),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(heading!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

describe('relative links in the docs resolve', () => {
  for (const doc of DOCS.filter((file) => existsSync(join(ROOT, file)))) {
    it(doc, () => {
      const text = readFileSync(join(ROOT, doc), 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
      const broken: string[] = [];
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue;
        const [path, fragment] = target!.split('#') as [string, string | undefined];
        const file = path ? join(ROOT, dirname(doc), path) : join(ROOT, doc);
        if (!existsSync(file)) broken.push(`${target}: no ${relative(ROOT, file)}`);
        else if (fragment && file.endsWith('.md') && !anchors(file).has(fragment)) broken.push(`${target}: no heading #${fragment} in ${relative(ROOT, file)}`);
      }
      expect(broken).toEqual([]);
    });
  }
});
