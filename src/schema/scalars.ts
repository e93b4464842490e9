import { LocalDateResolver, SafeIntResolver, URLResolver } from 'graphql-scalars';
import { builder } from './builder.js';

builder.addScalarType('SafeInt', SafeIntResolver, {
  description:
    'An integer in [-(2^53-1), 2^53-1], sent as a JSON number. Stream counts exceed the 32-bit `Int`.',
});
// LocalDate keeps dates as `YYYY-MM-DD` strings, as the upstream sends them; no time zone games.
builder.addScalarType('Date', LocalDateResolver, {
  description: 'A calendar day (UTC) as `YYYY-MM-DD`.',
});
builder.addScalarType('URL', URLResolver, {
  description: 'An absolute http(s) URL.',
});
