/**
 * The error codes clients may see are listed twice: for people in the table
 * of docs/errors.md, for the code in ERROR_CODES (src/error-codes.ts), whose
 * ErrorCode type every sender uses. The two lists must be the same.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/error-codes.js';

const ROOT = new URL('..', import.meta.url).pathname;
const ERRORS_DOC = 'docs/errors.md';

/** The first column of the table's rows: `| \`NOT_FOUND\` | when | HTTP | data |`. */
function documentedCodes(): string[] {
  const text = readFileSync(join(ROOT, ERRORS_DOC), 'utf8');
  return [...text.matchAll(/^\|\s*`([A-Z][A-Z_]*)`\s*\|/gm)].map((match) => match[1] ?? '');
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'simulator' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('error codes', () => {
  it(`every code of ${ERRORS_DOC} is in ERROR_CODES, and every one of ERROR_CODES is in its table`, () => {
    const documented = documentedCodes();
    expect(documented.length).toBeGreaterThan(0);
    expect(new Set(documented).size).toBe(documented.length);
    expect([...documented].sort()).toEqual([...ERROR_CODES].sort());
  });

  it('ERROR_CODES lists each code once', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
  });

  it('every code written as a literal in the gateway (the simulator aside) is in ERROR_CODES', () => {
    const known = new Set<string>(ERROR_CODES);
    const sent = new Set<string>();
    for (const file of sourceFiles(join(ROOT, 'src'))) {
      const text = readFileSync(file, 'utf8');
      for (const pattern of [
        /\bcode:\s*'([A-Z][A-Z_]+)'/g,
        /\bcoded\([\s\S]*?,\s*'([A-Z][A-Z_]+)'\s*[,)]/g,
        /new UpstreamError\(\s*'([A-Z][A-Z_]+)'/g,
      ]) {
        for (const match of text.matchAll(pattern)) sent.add(match[1] ?? '');
      }
    }
    expect(sent.size).toBeGreaterThan(10);
    expect([...sent].filter((code) => !known.has(code))).toEqual([]);
  });
});
