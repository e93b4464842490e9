import type { CombinedError } from 'urql';

/** The gateway's stable error code for "no such artist/song/album" (`extensions.code`). */
export function hasErrorCode(error: CombinedError | undefined, code: string): boolean {
  return error?.graphQLErrors.some((e) => e.extensions.code === code) ?? false;
}

/** A sentence for the error view: never a stack trace, the gateway already masks those. */
export function describeError(error: CombinedError): string {
  if (error.networkError !== undefined)
    return 'The statistics service cannot be reached right now.';
  if (hasErrorCode(error, 'RATE_LIMITED'))
    return 'Too many requests: the daily budget is used up for now.';
  if (hasErrorCode(error, 'UPSTREAM_ERROR'))
    return 'The statistics service is having trouble; try again in a moment.';
  return error.graphQLErrors[0]?.message ?? error.message;
}
