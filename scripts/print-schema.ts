/** Writes schema.graphql from the Pothos schema (`npm run schema`); a test fails when it is stale. */
import { writeFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { schema } from '../src/schema/index.js';

writeFileSync(new URL('../schema.graphql', import.meta.url), `${printSchema(schema)}\n`);
console.log('schema.graphql written');
