/**
 * Writes schema.graphql from the Pothos schema, with IBM's cost directives (`npm run schema`);
 * a test fails when it is stale.
 */
import { writeFileSync } from 'node:fs';
import { printSchemaWithCost } from '../src/schema/cost-directives.js';
import { schema } from '../src/schema/index.js';

writeFileSync(new URL('../schema.graphql', import.meta.url), `${printSchemaWithCost(schema)}\n`);
console.log('schema.graphql written');
