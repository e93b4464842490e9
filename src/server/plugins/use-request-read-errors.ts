/**
 * What Yoga cannot read as a GraphQL request becomes BAD_REQUEST, never an
 * unexpected error: a GET whose `variables` or `extensions` is not JSON (or
 * not even URL-decodable, `variables=%`), and a POST in a media type the
 * gateway does not read (multipart among them: the schema has no uploads,
 * so Yoga's multipart parser is off) is refused with 415. None of them
 * quotes the request back.
 */
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { badRequest } from '../../http-errors.js';

type RequestParser = NonNullable<
  Parameters<NonNullable<Plugin['onRequestParse']>>[0]['requestParser']
>;

const ACCEPTED_TYPES =
  'application/json, application/graphql+json, application/graphql or application/x-www-form-urlencoded';

export function useRequestReadErrors(): Plugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser }) {
      if (requestParser === undefined) {
        // Yoga answers other methods itself (405); only a POST can get here without a parser.
        if (request.method === 'POST') {
          throw badRequest(`Unsupported Content-Type: send ${ACCEPTED_TYPES}`, 415);
        }
        return;
      }
      const guarded = (async (original: Request) => {
        try {
          return await requestParser(original);
        } catch (error) {
          if (error instanceof GraphQLError) throw withoutOriginal(error);
          throw badRequest(
            'The request parameters cannot be read: `variables` and `extensions` must be URL-encoded JSON',
          );
        }
      }) as RequestParser;
      setRequestParser(guarded);
    },
  };
}

/**
 * Yoga's own refusals (a body that is not JSON, say) carry the parser's message in
 * `extensions.originalError`, and that message quotes the body back: a page that shows the
 * answer would show what the client sent. Only the error's name stays, which is also what
 * keeps the answer's 400 (Yoga reads it to tell a request it could not read from one it ran).
 */
function withoutOriginal(error: GraphQLError): GraphQLError {
  const original = error.extensions.originalError as { name?: unknown } | undefined;
  if (original === undefined) return error;
  (error.extensions as Record<string, unknown>).originalError = { name: original.name };
  return error;
}
