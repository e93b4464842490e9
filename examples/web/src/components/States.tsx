/** The states every query passes through besides "here is the data". */
import type { ReactNode } from 'react';

export function Loading({ what }: { readonly what: string }) {
  return (
    <div className="state" data-testid="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      Loading {what}…
    </div>
  );
}

/** A deferred part of the page that the server has not sent yet (@defer): it is on its way. */
export function Arriving({ what }: { readonly what: string }) {
  return (
    <p className="state" data-testid="arriving" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {what} on the way…
    </p>
  );
}

export function ErrorView({
  message,
  onRetry,
}: {
  readonly message: string;
  readonly onRetry: () => void;
}) {
  return (
    <div className="state state-error" data-testid="error" role="alert">
      <h2>Something went wrong</h2>
      <p>{message}</p>
      <button type="button" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

export function NotFound({ slug }: { readonly slug: string }) {
  return (
    <div className="state state-not-found" data-testid="not-found">
      <h2>Artist not found</h2>
      <p>
        We have no artist called <code>{slug}</code>. Check the address, or pick someone from the
        leaderboard.
      </p>
      <a className="button" href="#/">
        Back to the leaderboard
      </a>
    </div>
  );
}

export function Empty({ children }: { readonly children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/**
 * A section the gateway answered null: its upstream read failed, so there is nothing to show,
 * not "none". Only that section says so; the rest of the page renders.
 */
export function Unavailable({ what }: { readonly what: string }) {
  return (
    <p className="empty unavailable" data-testid="unavailable">
      {what} not available right now.
    </p>
  );
}
