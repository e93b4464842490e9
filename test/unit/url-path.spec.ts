/** Cutting request targets and absolute URLs to their paths (src/url-path.ts). */
import { expect, it } from 'vitest';
import { requestPath, urlPath } from '../../src/url-path.js';

it('cuts a request target before its query', () => {
  expect(urlPath('/graphql?query=%7B__typename%7D')).toBe('/graphql');
  expect(urlPath('/ready')).toBe('/ready');
});

it('finds the path of an absolute URL after its authority, before its query', () => {
  expect(requestPath('http://127.0.0.1:4000/ready')).toBe('/ready');
  expect(requestPath('http://localhost/graphql?query=x')).toBe('/graphql');
  expect(requestPath('http://host:1/a/ready')).toBe('/a/ready');
  expect(requestPath('http://host')).toBe('/');
  expect(requestPath('/metrics?x=1')).toBe('/metrics');
  // A request target is a path already, whatever slashes it holds.
  expect(requestPath('/graphql//x?y=1')).toBe('/graphql//x');
});
