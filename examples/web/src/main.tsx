import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Client, cacheExchange, fetchExchange, Provider } from 'urql';
import { App } from './App';
import { graphqlUrl } from './config';
import { sseSubscriptionExchange } from './live';
import './styles.css';

// urql's document cache: a result is reused while the same query and variables are on screen
// again (back from an artist page to the leaderboard costs no request).
// Subscriptions (the milestone ticker) go over SSE; everything else over fetch.
const client = new Client({
  url: graphqlUrl(),
  exchanges: [cacheExchange, fetchExchange, sseSubscriptionExchange(graphqlUrl())],
});

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <Provider value={client}>
      <App />
    </Provider>
  </StrictMode>,
);
