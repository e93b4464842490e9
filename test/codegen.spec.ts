/**
 * The checked-in codegen output (examples/generated) is what `npm run codegen` produces from
 * schema.graphql and examples/operations today: a stale file fails here, byte for byte.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from '@graphql-codegen/cli';
import { expect, it } from 'vitest';
import config from '../codegen.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUTPUT_DIR = 'examples/generated/';

it('examples/generated matches a fresh `npm run codegen`', async () => {
  expect(Object.keys(config.generates)).toEqual([OUTPUT_DIR]);
  // In memory (saveToFile false): nothing in the work tree is touched.
  const files: { filename: string; content: string }[] = await generate(
    { ...config, cwd: ROOT, silent: true },
    false,
  );

  const generated = new Map(
    files.map((file) => [relative(ROOT, resolve(ROOT, file.filename)), file.content]),
  );
  const checkedIn = readdirSync(join(ROOT, OUTPUT_DIR)).map((name) => join(OUTPUT_DIR, name));
  expect([...generated.keys()].sort()).toEqual(checkedIn.sort());
  expect(generated.size).toBeGreaterThan(0);

  for (const [path, content] of generated) {
    const onDisk = readFileSync(join(ROOT, path), 'utf8');
    expect(
      onDisk === content,
      `${path} is stale: run \`npm run codegen\` and commit the result`,
    ).toBe(true);
  }
});

it('the persisted-documents manifest lists every example operation', () => {
  const manifest = JSON.parse(
    readFileSync(join(ROOT, OUTPUT_DIR, 'persisted-documents.json'), 'utf8'),
  ) as Record<string, string>;
  const operations = readdirSync(join(ROOT, 'examples/operations'))
    .filter((name) => name.endsWith('.graphql'))
    .map((name) => name.slice(0, -'.graphql'.length))
    .sort();
  const named = Object.values(manifest)
    .map((document) => /^(?:query|mutation|subscription) (\w+)/.exec(document)?.[1])
    .sort();
  expect(named).toEqual(operations);
  for (const hash of Object.keys(manifest)) expect(hash).toMatch(/^[0-9a-f]{64}$/);
});
