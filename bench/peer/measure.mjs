// Called by measure.sh once the simulator, our gateway and the peer are up.
// Checks that both answer each query with the same data, warms each query on
// both, then runs autocannon rounds ours, peer, peer, ours per query and prints
// a markdown table. Environment (all set by measure.sh):
//   OURS_URL, PEER_URL, AUTOCANNON, CONNECTIONS, ROUND_SECONDS, WARM_SECONDS, ONLY (query keys),
//   CHECK_ONLY=1 (compare the answers and stop; DUMP_DIR=dir writes them there)
import { spawn } from 'node:child_process';
import { isDeepStrictEqual } from 'node:util';
import { QUERIES } from './queries.mjs';

const env = process.env;
const OURS_URL = env.OURS_URL ?? 'http://127.0.0.1:4000/graphql';
const PEER_URL = env.PEER_URL ?? 'http://127.0.0.1:4001/graphql';
const AUTOCANNON =
  env.AUTOCANNON ?? new URL('../../node_modules/.bin/autocannon', import.meta.url).pathname;
const CONNECTIONS = Number(env.CONNECTIONS ?? 10);
const ROUND_SECONDS = Number(env.ROUND_SECONDS ?? 5);
const WARM_SECONDS = Number(env.WARM_SECONDS ?? 3);
const ONLY = env.ONLY ? env.ONLY.split(',') : null;
const queries = QUERIES.filter((q) => !ONLY || ONLY.includes(q.key));

const log = (...a) => console.error(...a);

async function post(url, body) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body,
  });
  const text = await res.text();
  return { status: res.status, bytes: Buffer.byteLength(text), json: JSON.parse(text) };
}

function autocannon(url, body, seconds) {
  const args = [
    '-c',
    String(CONNECTIONS),
    '-d',
    String(seconds),
    '-m',
    'POST',
    '-H',
    'content-type=application/json',
    '-H',
    'accept=application/json',
    '-b',
    body,
    '-j',
    url,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(AUTOCANNON, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}: ${err}`));
      try {
        const r = JSON.parse(out);
        resolve({
          total: r.requests.total,
          duration: r.duration,
          rps: r.requests.total / r.duration,
          errors: r.errors,
          timeouts: r.timeouts,
          non2xx: r.non2xx,
          p50: r.latency.p50,
          p99: r.latency.p99,
        });
      } catch (e) {
        reject(new Error(`cannot read autocannon output: ${e.message}\n${out.slice(0, 500)}`));
      }
    });
  });
}

const fmt = (n) => Math.round(n).toLocaleString('en-US');

async function answers(q, slug) {
  const oursBody = JSON.stringify(q.ours(slug));
  const peerBody = JSON.stringify(q.peer(slug));
  const [o, p] = await Promise.all([post(OURS_URL, oursBody), post(PEER_URL, peerBody)]);
  const problems = [];
  if (o.status !== 200 || o.json.errors)
    problems.push(`ours: HTTP ${o.status} ${JSON.stringify(o.json.errors ?? '')}`);
  if (p.status !== 200 || p.json.errors)
    problems.push(`peer: HTTP ${p.status} ${JSON.stringify(p.json.errors ?? '')}`);
  let same = false;
  if (problems.length === 0) {
    same = isDeepStrictEqual(q.normalize.ours(o.json.data), q.normalize.peer(p.json.data));
  }
  return { oursBody, peerBody, o, p, same, problems };
}

async function main() {
  const slugAnswer = await post(
    OURS_URL,
    JSON.stringify({ query: '{ topArtistsByStreams(limit: 1) { artist { slug } } }' }),
  );
  const slug = slugAnswer.json.data.topArtistsByStreams[0].artist.slug;
  log(`artist slug for "one artist": ${slug}`);

  // 1. Same information from both (data compared after mapping both to one shape).
  const checked = [];
  for (const q of queries) checked.push({ q, ...(await answers(q, slug)) });
  console.log('\n### Answers (before load)\n');
  console.log('| query | ours bytes | peer bytes | same data (normalized) | problems |');
  console.log('|---|---:|---:|---|---|');
  for (const c of checked) {
    console.log(
      `| ${c.q.name} | ${fmt(c.o.bytes)} | ${fmt(c.p.bytes)} | ${c.same ? 'yes' : 'NO'} | ${c.problems.join('; ') || '-'} |`,
    );
  }
  console.log(
    '\nOurs adds `extensions.cost` to every answer; the peer has no extensions. The peer answers the leaderboard flat (rank, slug, name, history on one object) where ours nests `artist { ... }`.',
  );

  if (env.CHECK_ONLY === '1') {
    if (env.DUMP_DIR) {
      const { writeFileSync } = await import('node:fs');
      for (const c of checked) {
        writeFileSync(`${env.DUMP_DIR}/${c.q.key}.ours.json`, JSON.stringify(c.o.json, null, 1));
        writeFileSync(`${env.DUMP_DIR}/${c.q.key}.peer.json`, JSON.stringify(c.p.json, null, 1));
      }
    }
    process.exit(checked.every((c) => c.same) ? 0 : 1);
  }

  // 2. Warm, then rounds ours, peer, peer, ours.
  const rows = [];
  for (const c of checked) {
    log(`\n== ${c.q.name}`);
    if (WARM_SECONDS > 0) {
      const wo = await autocannon(OURS_URL, c.oursBody, WARM_SECONDS);
      const wp = await autocannon(PEER_URL, c.peerBody, WARM_SECONDS);
      log(`  warm-up: ours ${fmt(wo.rps)} req/s, peer ${fmt(wp.rps)} req/s (not counted)`);
    }
    const runs = { ours: [], peer: [] };
    for (const who of ['ours', 'peer', 'peer', 'ours']) {
      const r = await autocannon(
        who === 'ours' ? OURS_URL : PEER_URL,
        who === 'ours' ? c.oursBody : c.peerBody,
        ROUND_SECONDS,
      );
      runs[who].push(r);
      log(
        `  ${who}: ${fmt(r.rps)} req/s (p50 ${r.p50} ms, p99 ${r.p99} ms, errors ${r.errors}, timeouts ${r.timeouts}, non2xx ${r.non2xx})`,
      );
    }
    const sum = (rs, k) => rs.reduce((s, r) => s + r[k], 0);
    const agg = (rs) => ({
      rps: sum(rs, 'total') / sum(rs, 'duration'),
      rounds: rs.map((r) => fmt(r.rps)).join(', '),
      errors: sum(rs, 'errors') + sum(rs, 'timeouts'),
      non2xx: sum(rs, 'non2xx'),
    });
    const after = await answers(c.q, slug);
    rows.push({ c, ours: agg(runs.ours), peer: agg(runs.peer), after });
  }

  console.log(
    `\n### Warm throughput (autocannon, ${CONNECTIONS} connections, rounds ours/peer/peer/ours of ${ROUND_SECONDS} s, warm-up ${WARM_SECONDS} s each)\n`,
  );
  console.log(
    "| query | ours req/s | peer req/s | ours/peer | issue goal | met | issue's peer req/s | ours errors / non-2xx | peer errors / non-2xx | ours rounds | peer rounds |",
  );
  console.log('|---|---:|---:|---:|---|---|---:|---|---|---|---|');
  for (const r of rows) {
    const ratio = r.ours.rps / r.peer.rps;
    console.log(
      `| ${r.c.q.name} | ${fmt(r.ours.rps)} | ${fmt(r.peer.rps)} | ${ratio.toFixed(1)}x | ${r.c.q.goal.text} | ${ratio >= r.c.q.goal.min && !(r.c.q.goal.min === 1 && ratio === 1) ? 'yes' : 'no'} | ${r.c.q.issuePeer} | ${r.ours.errors} / ${r.ours.non2xx} | ${r.peer.errors} / ${r.peer.non2xx} | ${r.ours.rounds} | ${r.peer.rounds} |`,
    );
  }
  const bad = rows.filter((r) => r.after.problems.length > 0 || !r.after.same);
  if (bad.length > 0) {
    console.log('\n**After load, some answers differ or carry errors:**');
    for (const r of bad)
      console.log(`- ${r.c.q.name}: ${r.after.problems.join('; ') || 'data differs'}`);
  } else {
    console.log('\nAfter load: both still answer every query without errors, with the same data.');
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
