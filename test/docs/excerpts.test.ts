// Code in the guides that quotes the code the tests run: a fenced block whose first line is
// `// from <path>` (or `<!-- from <path> -->`) must be that file's text, in order, where `// …`
// marks what the excerpt leaves out. Renaming an option in a test app then breaks this test, not a
// reader's copy of the guide.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/packed';

const FROM = /^(?:\/\/|<!--) from (\S+?)(?: -->)?$/;

interface Excerpt {
  doc: string;
  line: number;
  path: string;
  parts: string[];
}

function excerpts(doc: string, text: string): Excerpt[] {
  const found: Excerpt[] = [];
  const fence = /^```\w*\n([\s\S]*?)^```$/gm;
  for (let match; (match = fence.exec(text));) {
    const [first, ...rest] = match[1]!.split('\n');
    const from = FROM.exec(first!.trim());
    if (!from) continue;
    const parts: string[][] = [[]];
    for (const line of rest) {
      if (line.trim() === '// …') parts.push([]);
      else parts[parts.length - 1]!.push(line);
    }
    found.push({ doc, line: text.slice(0, match.index).split('\n').length, path: from[1]!, parts: parts.map((part) => part.join('\n').trim()).filter(Boolean) });
  }
  return found;
}

const docs = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
];
const all = docs.flatMap((doc) => excerpts(doc, readFileSync(join(ROOT, doc), 'utf8')));

describe('excerpts in the docs are the code the tests run', () => {
  it('there are excerpts to check', () => expect(all.length).toBeGreaterThan(5));

  for (const excerpt of all) {
    it(`${excerpt.doc}:${excerpt.line} quotes ${excerpt.path}`, () => {
      const source = readFileSync(join(ROOT, excerpt.path), 'utf8');
      let at = 0;
      for (const part of excerpt.parts) {
        const found = source.indexOf(part, at);
        expect(found, `not in ${excerpt.path} (after offset ${at}):\n${part}`).toBeGreaterThanOrEqual(0);
        at = found + part.length;
      }
    });
  }
});
