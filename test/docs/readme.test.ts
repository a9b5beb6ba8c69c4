// The README is the front door: what a newcomer needs in their first five minutes (the commands,
// the imports, what counts, the quick start), and a link to the guide for everything else. It grew
// to 12.5 KB one useful paragraph at a time (issue 48); this test holds it under 12 KB, so the next
// paragraph goes to a guide, or replaces one. The quick start's commands and snippets themselves are
// run as written by test/package/first-hour.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/packed';

const LIMIT = 12 * 1024;

describe('README.md', () => {
  const readme = readFileSync(join(ROOT, 'README.md'));

  it(`stays under ${LIMIT.toLocaleString('en')} bytes: detail belongs in the guides`, () => {
    expect(readme.byteLength, 'README.md has grown past 12 KB: move the detail to a guide under docs/ and link to it').toBeLessThanOrEqual(LIMIT);
  });

  it('opens with the command CI runs, verbatim', () => {
    const first = /^```bash\n([\s\S]*?)^```$/m.exec(readme.toString('utf8'));
    const commands = first![1]!.split('\n').filter((line) => line && !line.startsWith('#'));
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8').trim().split('\n').pop();
    expect(commands).toEqual(['npm install && npm run demo', 'npm install && npm test']);
    expect(commands).toContain(ci);
  });
});
