import { useSubscription } from 'urql';
import {
  MilestoneCrossedDocument,
  type MilestoneCrossedSubscription,
} from '../../../generated/graphql';
import { formatCount } from '../format';
import { artistHref } from '../router';

type Milestone = MilestoneCrossedSubscription['milestoneCrossed'];

/** How many of the newest milestones the ticker keeps. */
const TICKER_SIZE = 5;

/** New milestones as the gateway learns of them: the `MilestoneCrossed` subscription, newest first. */
export function MilestoneTicker() {
  const [{ data: milestones = [] }] = useSubscription<MilestoneCrossedSubscription, Milestone[]>(
    { query: MilestoneCrossedDocument },
    (seen = [], event) => [event.milestoneCrossed, ...seen].slice(0, TICKER_SIZE),
  );
  return (
    <section className="panel ticker" data-testid="milestone-ticker">
      <h1>New milestones</h1>
      {milestones.length === 0 ? (
        <p className="subtitle">
          Live: a milestone shows here as soon as the upstream publishes it.
        </p>
      ) : (
        <ul className="ticker-list">
          {milestones.map((milestone) => (
            <li key={milestone.id} data-testid="ticker-item">
              <a href={artistHref(milestone.artist.slug)}>{milestone.artist.name}</a>
              {milestone.song ? ` · ${milestone.song.title}` : ''} passed{' '}
              {formatCount(milestone.threshold)}
              {milestone.platform == null ? '' : ` ${milestone.platform}`} streams
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
