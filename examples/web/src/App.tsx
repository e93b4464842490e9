import { ArtistPage } from './pages/ArtistPage';
import { LeaderboardPage } from './pages/LeaderboardPage';
import { useRoute } from './router';

export function App() {
  const route = useRoute();
  return (
    <>
      <header className="topbar">
        <a className="brand" href="#/">
          <span className="brand-mark" aria-hidden="true">
            ♫
          </span>{' '}
          Music Stats
        </a>
        <span className="tagline">Streams, charts and milestones of the artists you follow</span>
      </header>
      <main className="content">
        {route.page === 'artist' ? (
          <ArtistPage key={route.slug} slug={route.slug} />
        ) : (
          <LeaderboardPage />
        )}
      </main>
    </>
  );
}
