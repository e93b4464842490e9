import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Client, cacheExchange, fetchExchange, Provider } from 'urql';
import { App } from './App';
import { authHeaders, graphqlUrl } from './config';
import { sseSubscriptionExchange } from './live';
import './styles.css';

// urql's document cache: a result is reused while the same query and variables are on screen
// again (back from an artist page to the leaderboard costs no request).
// Subscriptions (the milestone ticker) go over SSE; everything else over fetch. In pass-through
// mode both carry the client's key (config.ts).
const headers = authHeaders();
const client = new Client({
  url: graphqlUrl(),
  fetchOptions: { headers },
  exchanges: [cacheExchange, fetchExchange, sseSubscriptionExchange(graphqlUrl(), headers)],
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
