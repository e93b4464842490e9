/**
 * Yoga's own test for a JSON POST (graphql-yoga's request-parser/post-json.js
 * and utils.js `isContentTypeMatch`): the first of a comma-separated list,
 * exactly `application/json` or `application/graphql+json`, parameters
 * allowed, case as sent. Yoga decodes every such body alike (UTF-8, whatever
 * the charset says), so the media type needs no place in the key; any other
 * type (`multipart/form-data; boundary=json`, `text/x-json`) is Yoga's to
 * read or refuse, never answered from a JSON request's stored bytes.
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const comma = contentType.indexOf(',');
  const type = comma < 0 ? contentType : contentType.slice(0, comma);
  return (
    type === 'application/json' ||
    type.startsWith('application/json;') ||
    type === 'application/graphql+json' ||
    type.startsWith('application/graphql+json;')
  );
}
