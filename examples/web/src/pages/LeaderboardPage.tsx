import { useQuery } from 'urql';
import { LeaderboardsDocument } from '../../../generated/graphql';
import { Avatar } from '../components/Avatar';
import { MilestoneTicker } from '../components/MilestoneTicker';
import { Empty, ErrorView, Loading, Unavailable } from '../components/States';
import { describeError } from '../errors';
import { countryName, formatCount, formatExact, MISSING } from '../format';
import { artistHref } from '../router';

/** How many artists and songs the home page ranks. */
export const LEADERBOARD_SIZE = 10;

/** Top artists and trending songs: one `Leaderboards` query, typed by codegen. */
export function LeaderboardPage() {
  const [{ data, fetching, error }, reexecute] = useQuery({
    query: LeaderboardsDocument,
    variables: { limit: LEADERBOARD_SIZE },
  });

  if (fetching && data === undefined) return <Loading what="the leaderboard" />;
  if (data === undefined) {
    return (
      <ErrorView
        message={error ? describeError(error) : 'No answer from the service.'}
        onRetry={() => reexecute({ requestPolicy: 'network-only' })}
      />
    );
  }

  const { topArtistsByStreams: artists, trendingSongs: songs } = data;
  return (
    <div className="leaderboard" data-testid="leaderboard">
      {/* Partial data: a list whose upstream call failed is null and says so; the other still shows. */}
      <MilestoneTicker />
      {error && (
        <p className="warning leaderboard-warning">
          Some lists could not be loaded: {describeError(error)}
        </p>
      )}
      <section className="panel">
        <h1>Top artists</h1>
        <p className="subtitle">By all-time streams across platforms</p>
        {artists == null ? (
          <Unavailable what="Top artists" />
        ) : artists.length === 0 ? (
          <Empty>No artists to rank yet.</Empty>
        ) : (
          <ol className="rank-list" data-testid="top-artists">
            {artists.map(({ rank, artist }) => (
              <li
                key={artist.slug}
                className="rank-row"
                data-testid="top-artist"
                data-slug={artist.slug}
              >
                <span className="rank">{rank}</span>
                <Avatar name={artist.name} imageUrl={artist.imageUrl} size={44} />
                <span className="who">
                  <a className="name" href={artistHref(artist.slug)} data-testid="artist-link">
                    {artist.name}
                  </a>
                  <span className="meta">
                    {countryName(artist.country)} · {formatCount(artist.monthlyListeners)} monthly
                    listeners
                  </span>
                </span>
                <span
                  className="figure"
                  title={formatExact(artist.totalStreams)}
                  data-testid="artist-streams"
                >
                  {formatCount(artist.totalStreams)}
                  <small>streams</small>
                </span>
              </li>
            ))}
          </ol>
        )}
      </section>

      <section className="panel">
        <h1>Trending songs</h1>
        <p className="subtitle">Hottest momentum this week</p>
        {songs == null ? (
          <Unavailable what="Trending songs" />
        ) : songs.length === 0 ? (
          <Empty>Nothing is trending right now.</Empty>
        ) : (
          <ol className="rank-list" data-testid="trending-songs">
            {songs.map(({ rank, momentumScore, song }) => (
              <li key={song.slug} className="rank-row" data-testid="trending-song">
                <span className="rank">{rank}</span>
                <span className="who">
                  <span className="name">{song.title}</span>
                  <span className="meta">
                    <a href={artistHref(song.artist.slug)}>{song.artist.name}</a> ·{' '}
                    {formatCount(song.dailyStreams)} streams a day
                  </span>
                </span>
                <span className="figure" title={`Momentum score ${formatMomentum(momentumScore)}`}>
                  <span className="momentum">
                    {momentumScore == null ? MISSING : `▲ ${formatMomentum(momentumScore)}`}
                  </span>
                  <small>{formatCount(song.totalStreams)} total</small>
                </span>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

/** 12.345 → "12.3"; a dash when the gateway has no score. */
function formatMomentum(score: number | null | undefined): string {
  return score == null ? MISSING : score.toFixed(1);
}
