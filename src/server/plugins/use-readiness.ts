/**
 * `/ready`: whether this replica should be sent requests, as graphql-yoga's
 * `useReadinessCheck` answers it (200 or 503, the report as JSON), on the
 * endpoint's exact path. Why not that plugin: it matches every request's URL
 * against a URLPattern, parsing the URL first, which cost a trivial query's
 * answer more than its execution; the path alone decides here.
 */
import type { Plugin } from 'graphql-yoga';
import { requestPath } from '../../url-path.js';

export interface ReadinessOptions {
  readonly endpoint: string;
  /** The body of the answer; `ready` decides its status. */
  report(): { ready: boolean } & Record<string, unknown>;
}

export function useReadiness({ endpoint, report }: ReadinessOptions): Plugin {
  return {
    onRequest({ request, endResponse }) {
      if (requestPath(request.url) !== endpoint) return;
      let body: ReturnType<ReadinessOptions['report']>;
      try {
        body = report();
      } catch (error) {
        // Not ready when readiness cannot be told, as Yoga's plugin answers a failed check.
        endResponse(
          new Response(error instanceof Error ? error.message : null, {
            status: 503,
            headers: error instanceof Error ? { 'content-type': 'text/plain; charset=utf-8' } : {},
          }),
        );
        return;
      }
      endResponse(Response.json(body, { status: body.ready ? 200 : 503 }));
    },
  };
}
