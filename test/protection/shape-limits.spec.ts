/** Shape limits (depth, aliases, directives, tokens, body size) and introspection. */

import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from '../support/stack.js';

let stack: Stack;
let closed: Stack;
beforeAll(async () => {
  stack = await startStack();
  closed = await startStack({
    sharedSimulator: stack.simulator,
    gateway: { protection: { shape: { introspection: false } } },
  });
});
afterAll(async () => {
  await closed.close();
  await stack.close();
});

const codeOf = (response: { body: { errors?: { extensions?: Record<string, unknown> }[] } }) =>
  response.body.errors?.[0]?.extensions?.code;

describe('defaults let every example and introspection through', () => {
  it('examples pass the shape limits', async () => {
    const files = readdirSync('examples/operations').filter((file) => file.endsWith('.graphql'));
    // Subscriptions answer over SSE: test/live runs them.
    const operations = files.map((file) => ({
      file,
      query: readFileSync(`examples/operations/${file}`, 'utf8'),
    }));
    const slug = stack.simulator.data.allArtists()[0]!.slug;
    for (const { file, query } of operations.filter(
      ({ query }) => !/^subscription /m.test(query),
    )) {
      const response = await stack.query(query, { slug });
      expect(response.body.errors, file).toBeUndefined();
    }
  });

  it("GraphiQL's and codegen's full introspection query runs", async () => {
    const response = await stack.query(
      getIntrospectionQuery({
        descriptions: true,
        specifiedByUrl: true,
        directiveIsRepeatable: true,
        schemaDescription: true,
        inputValueDeprecation: true,
      }),
    );
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
  });
});

describe('limits', () => {
  it('depth 11 > 10 is refused before any upstream call', async () => {
    const calls = stack.upstreamCalls();
    // artist(1) › topSongs(2) › artist(3) › topSongs(4) › album(5) › artist(6) › topSongs(7) › artist(8) › topSongs(9) › artist(10) › name(11)
    const response = await stack.query(
      '{ artist(slug: "a") { topSongs { artist { topSongs { album { artist { topSongs { artist { topSongs { artist { name } } } } } } } } } } }',
    );
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.message).toMatch(/depth limit of 10/i);
    expect(stack.upstreamCalls()).toBe(calls);
  });

  it('16 aliases > 15 are refused', async () => {
    const fields = Array.from({ length: 16 }, (_, i) => `a${i}: apiUsage { used }`).join(' ');
    const response = await stack.query(`{ ${fields} }`);
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.message).toMatch(/aliases limit of 15/i);
  });

  it('11 directives > 10 are refused', async () => {
    const response = await stack.query(`{ apiUsage { used ${'@include(if: true) '.repeat(11)} } }`);
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.message).toMatch(/directives limit of 10/i);
  });

  it('more than 2000 tokens are refused at parse time', async () => {
    const response = await stack.query(`{ apiUsage { ${'used '.repeat(2_100)} } }`);
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.message).toMatch(/token limit of 2000/i);
  });

  it('a body over 64 KiB gets 413, whether Content-Length says so or not', async () => {
    const big = JSON.stringify({
      query: '{ apiUsage { used } }',
      variables: { padding: 'x'.repeat(70_000) },
    });
    const declared = await fetch(`${stack.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: big,
    });
    expect(declared.status).toBe(413);
    expect(
      ((await declared.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!
        .extensions.code,
    ).toBe('PAYLOAD_TOO_LARGE');
    const chunked = await fetch(`${stack.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
  });

  it('a Content-Length smaller than the body sent: only the declared bytes are the body, the rest is refused', async () => {
    const big = JSON.stringify({ query: '{ apiUsage { used } }', padding: 'x'.repeat(70_000) });
    const { port } = new URL(stack.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.end(
      `POST /graphql HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
        `content-length: 30\r\n\r\n${big}`,
    );
    let received = '';
    for await (const chunk of socket) received += String(chunk);
    const statuses = [...received.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((match) => match[1]);
    // The 30 declared bytes are a truncated document (400); what follows is no request (400).
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === '400')).toBe(true);
  });
});

describe('GRAPHQL_INTROSPECTION=false', () => {
  it('refuses __schema and __type, and suggests no field names', async () => {
    const schemaQuery = await closed.query('{ __schema { queryType { name } } }');
    expect(schemaQuery.status).toBe(400);
    expect(schemaQuery.body.errors?.[0]?.message).toMatch(/introspection/i);
    const typo = await closed.query('{ chrts { name } }');
    expect(typo.body.errors?.[0]?.message).not.toMatch(/Did you mean/);
    const openTypo = await stack.query('{ chrts { name } }');
    expect(openTypo.body.errors?.[0]?.message).toMatch(/Did you mean "charts"/);
    expect(codeOf(typo)).not.toBe('INTERNAL_SERVER_ERROR');
  });
});
