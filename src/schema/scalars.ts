import { GraphQLScalarType } from 'graphql';
import { LocalDateResolver, SafeIntResolver, URLResolver } from 'graphql-scalars';
import { isCalendarDay } from '../time.js';
import { builder } from './builder.js';

builder.addScalarType('SafeInt', SafeIntResolver, {
  description:
    'An integer in [-(2^53-1), 2^53-1], sent as a JSON number. Stream counts exceed the 32-bit `Int`.',
});

/**
 * LocalDate keeps dates as `YYYY-MM-DD` strings, as the upstream sends them; no time zone games.
 * Its check of an answered value builds two Dates; a page answers thousands of dates (a 90-day
 * history per artist), so a valid day is checked from its characters and only anything else goes
 * to LocalDate, which refuses it with its own error.
 */
const LocalDate = LocalDateResolver.toConfig();
const DateScalar = new GraphQLScalarType(
  Object.assign({}, LocalDate, {
    serialize: (value: unknown) =>
      typeof value === 'string' && isCalendarDay(value) ? value : LocalDate.serialize(value),
  }),
);

builder.addScalarType('Date', DateScalar, {
  description: 'A calendar day (UTC) as `YYYY-MM-DD`.',
});
builder.addScalarType('URL', URLResolver, {
  description: 'An absolute http(s) URL.',
});
