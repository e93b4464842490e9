/** Assembles the schema: each import adds one family of types to the builder. */
import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder.js';
import './scalars.js';
import './enums.js';
import './stats.js';
import './artist.js';
import './song.js';
import './album.js';
import './milestone.js';
import './chart.js';
import './rankings.js';
import './usage.js';
import './live.js';

export const schema = lexicographicSortSchema(builder.toSchema());
