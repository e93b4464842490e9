import { useQuery } from 'urql';
import { ArtistPageDocument, type ArtistPageQuery } from '../../../generated/graphql';
import { Avatar } from '../components/Avatar';
import { ShowMore } from '../components/ShowMore';
import { Stat } from '../components/Stat';
import { Arriving, Empty, ErrorView, Loading, NotFound, Unavailable } from '../components/States';
import { StreamHistoryChart } from '../components/StreamHistoryChart';
import { describeError, hasErrorCode } from '../errors';
import { countryName, formatCount, formatDay, formatExact, humanize, MISSING } from '../format';

type Artist = NonNullable<ArtistPageQuery['artist']>;

/** Rows of a long list shown before "Show all". */
export const LIST_PREVIEW = 8;

/** Everything about one artist from one nested `ArtistPage` query. */
export function ArtistPage({ slug }: { readonly slug: string }) {
  const [{ data, fetching, error }, reexecute] = useQuery({
    query: ArtistPageDocument,
    variables: { slug },
  });

  if (fetching && data === undefined) return <Loading what="the artist" />;
  // The gateway answers an unknown slug with `artist: null` and a NOT_FOUND error; a null artist
  // with another error (the upstream failed) is an error, not "not found".
  if (data?.artist === null && (error === undefined || hasErrorCode(error, 'NOT_FOUND'))) {
    return <NotFound slug={slug} />;
  }
  const artist = data?.artist;
  if (artist == null) {
    return (
      <ErrorView
        message={error ? describeError(error) : 'No answer from the service.'}
        onRetry={() => reexecute({ requestPolicy: 'network-only' })}
      />
    );
  }

  return (
    <article className="artist" data-testid="artist-page">
      <a className="back" href="#/">
        ← Leaderboard
      </a>
      <Profile artist={artist} />
      {/* Partial data: a section whose upstream call failed is null and says so; the rest still shows. */}
      {error && <p className="warning">Some figures could not be loaded: {describeError(error)}</p>}

      <section className="panel">
        <h2>Streams over the last 90 days</h2>
        {/* Deferred (@defer): undefined until its payload arrives; null when its upstream read failed. */}
        {artist.history === undefined ? (
          <Arriving what="Stream history" />
        ) : artist.history === null ? (
          <Unavailable what="Stream history" />
        ) : artist.history.length === 0 ? (
          <Empty>No stream history yet.</Empty>
        ) : (
          <StreamHistoryChart history={artist.history} />
        )}
      </section>

      <div className="columns">
        <TopSongs artist={artist} />
        <ChartPositions artist={artist} />
      </div>
      <div className="columns">
        <Milestones artist={artist} />
        <Awards artist={artist} />
      </div>
    </article>
  );
}

function Profile({ artist }: { readonly artist: Artist }) {
  return (
    <header className="profile">
      <Avatar name={artist.name} imageUrl={artist.imageUrl} size={128} />
      <div className="profile-text">
        <span className="eyebrow">{artist.isAfrobeats ? 'Afrobeats artist' : 'Artist'}</span>
        <h1 data-testid="artist-name">{artist.name}</h1>
        <span className="meta" data-testid="artist-country">
          {countryName(artist.country)}
        </span>
        <div className="stats">
          <Stat label="Total streams" value={artist.totalStreams} testId="total-streams" />
          <Stat label="Daily streams" value={artist.dailyStreams} testId="daily-streams" />
          <Stat
            label="Monthly listeners"
            value={artist.monthlyListeners}
            testId="monthly-listeners"
          />
          <Stat label="Followers" value={artist.followers} testId="followers" />
        </div>
      </div>
    </header>
  );
}

function TopSongs({ artist }: { readonly artist: Artist }) {
  return (
    <section className="panel">
      <h2>Top songs</h2>
      <p className="subtitle">
        {artist.songs == null
          ? 'Catalogue size not available right now.'
          : `${formatCount(artist.songs.totalCount)} songs in the catalogue`}
      </p>
      {artist.topSongs == null ? (
        <Unavailable what="Top songs" />
      ) : artist.topSongs.length === 0 ? (
        <Empty>No songs released yet.</Empty>
      ) : (
        <ol className="song-list" data-testid="top-songs">
          {artist.topSongs.map((song, index) => (
            <li key={song.slug} data-testid="top-song">
              <span className="rank">{index + 1}</span>
              <span className="who">
                <span className="name">{song.title}</span>
                <span className="meta">
                  {song.album?.title ?? 'Single'} · {formatDay(song.releaseDate)}
                </span>
              </span>
              <span className="figure" title={formatExact(song.totalStreams)}>
                {formatCount(song.totalStreams)}
                <small>streams</small>
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function ChartPositions({ artist }: { readonly artist: Artist }) {
  if (artist.chartPositions == null) {
    return (
      <section className="panel">
        <h2>On the charts</h2>
        <Unavailable what="Chart positions" />
      </section>
    );
  }
  // Best placings first: that is what a fan looks for.
  const entries = [...artist.chartPositions].sort((a, b) => a.position - b.position);
  const charts = new Set(entries.map((entry) => `${entry.chart.name}/${entry.chart.territory}`))
    .size;
  return (
    <section className="panel">
      <h2>On the charts</h2>
      {entries.length === 0 ? (
        <Empty>Not on any chart this week.</Empty>
      ) : (
        <>
          <p className="subtitle" data-testid="chart-summary">
            {entries.length} {entries.length === 1 ? 'entry' : 'entries'} on {charts}{' '}
            {charts === 1 ? 'chart' : 'charts'} this week
          </p>
          <ShowMore items={entries} initial={LIST_PREVIEW} noun="chart entries">
            {(visible) => (
              <table className="chart-table" data-testid="chart-positions">
                <thead>
                  <tr>
                    <th>Chart</th>
                    <th className="num">Now</th>
                    <th className="num">Peak</th>
                    <th className="num">Weeks</th>
                  </tr>
                </thead>
                <tbody>
                  {visible.map((entry, index) => (
                    <tr
                      // biome-ignore lint/suspicious/noArrayIndexKey: an artist may hold one place twice in a chart; the index tells the rows apart.
                      key={`${entry.chart.name}-${entry.chart.territory}-${entry.position}-${index}`}
                    >
                      <td>
                        {humanize(entry.chart.name)}
                        <span className="meta"> · {countryName(entry.chart.territory)}</span>
                      </td>
                      <td className="num position">#{entry.position}</td>
                      <td className="num">
                        {entry.peakPosition == null ? '—' : `#${entry.peakPosition}`}
                      </td>
                      <td className="num">{entry.weeksOnChart ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </ShowMore>
        </>
      )}
    </section>
  );
}

function Milestones({ artist }: { readonly artist: Artist }) {
  if (artist.milestones === undefined) {
    return (
      <section className="panel">
        <h2>Milestones</h2>
        <Arriving what="Milestones" />
      </section>
    );
  }
  if (artist.milestones === null) {
    return (
      <section className="panel">
        <h2>Milestones</h2>
        <Unavailable what="Milestones" />
      </section>
    );
  }
  // The gateway lists them oldest first; a fan reads the newest first.
  const newestFirst = [...artist.milestones].reverse();
  return (
    <section className="panel">
      <h2>Milestones</h2>
      {newestFirst.length === 0 ? (
        <Empty>No milestones yet.</Empty>
      ) : (
        <>
          <p className="subtitle" data-testid="milestone-summary">
            {newestFirst.length} thresholds crossed, newest first
          </p>
          <ShowMore items={newestFirst} initial={LIST_PREVIEW} noun="milestones">
            {(visible) => (
              <ol className="timeline" data-testid="milestones">
                {visible.map((milestone) => (
                  <li key={milestone.id}>
                    <time dateTime={milestone.crossedAt}>{formatDay(milestone.crossedAt)}</time>
                    <span>
                      {milestone.song ? (
                        <strong>“{milestone.song.title}”</strong>
                      ) : (
                        <strong>{artist.name}</strong>
                      )}{' '}
                      {/* A timeline record may not say the platform (null): then just "streams". */}
                      passed {formatCount(milestone.threshold)}{' '}
                      {milestone.platform == null ? '' : `${humanize(milestone.platform)} `}streams
                    </span>
                  </li>
                ))}
              </ol>
            )}
          </ShowMore>
        </>
      )}
    </section>
  );
}

function Awards({ artist }: { readonly artist: Artist }) {
  return (
    <section className="panel">
      <h2>Awards</h2>
      {artist.awards == null ? (
        <Unavailable what="Awards" />
      ) : artist.awards.length === 0 ? (
        <Empty>No awards or nominations yet.</Empty>
      ) : (
        <ul className="awards" data-testid="awards">
          {artist.awards.map((award, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the same award may be listed twice in a year; the index tells them apart.
            <li key={`${award.name}-${award.category}-${award.year}-${index}`}>
              <AwardBadge won={award.won} />
              <span className="who">
                <span className="name">{award.name}</span>
                <span className="meta">
                  {award.category ?? 'Award'}
                  {award.year == null ? '' : ` · ${award.year}`}
                </span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Won or nominated; a dash when the upstream did not say (never guessed as "Nominated"). */
function AwardBadge({ won }: { readonly won: boolean | null | undefined }) {
  if (won == null)
    return (
      <span className="badge" title="Result not known">
        {MISSING}
      </span>
    );
  return <span className={won ? 'badge won' : 'badge'}>{won ? 'Won' : 'Nominated'}</span>;
}
