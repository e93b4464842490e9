/**
 * The documentation moved out of the README into docs/: every variable the
 * configuration reads has its row in docs/configuration.md, and every
 * relative link between the documents (docs/decisions/ included) leads to a
 * file and a heading that exist.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT_VARIABLES } from '../src/config.js';

const ROOT = new URL('..', import.meta.url).pathname;
const DOCUMENTS = [
  'README.md',
  'CHANGELOG.md',
  'BENCHMARKS.md',
  ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** GitHub's heading anchors: lower case, punctuation dropped, each space a hyphen. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsIn(path: string): Set<string> {
  const text = readFileSync(path, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1] ?? '')));
}

describe('documentation', () => {
  it('docs/configuration.md has a row for every variable src/config.ts reads', () => {
    const text = readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8');
    const rows = new Set(
      [...text.matchAll(/^\|\s*`([A-Z][A-Z0-9_]*)`/gm)].map((match) => match[1]),
    );
    expect(ENVIRONMENT_VARIABLES.length).toBeGreaterThan(50);
    expect(ENVIRONMENT_VARIABLES.filter((name) => !rows.has(name))).toEqual([]);
  });

  it('every relative link leads to a file, and its anchor to a heading of that file', () => {
    const broken: string[] = [];
    for (const document of DOCUMENTS) {
      const path = join(ROOT, document);
      const text = readFileSync(path, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
      for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const [file = '', anchor] = target.split('#');
        const linked = file === '' ? path : join(dirname(path), file);
        if (!existsSync(linked)) broken.push(`${document}: ${target} (no such file)`);
        else if (anchor !== undefined && linked.endsWith('.md') && !anchorsIn(linked).has(anchor))
          broken.push(`${document}: ${target} (no heading ${relative(ROOT, linked)}#${anchor})`);
      }
    }
    expect(broken).toEqual([]);
  });
});
