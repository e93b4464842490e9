/**
 * Who one client is, for its rate limit and its share of the day: an IPv4 address, or the IPv6
 * /64 network its address is in (a host may take any address of its /64 at will, so each would
 * otherwise be a fresh client with a fresh limit and share). Over real sockets only loopback
 * addresses exist here, so the rule is checked on the addresses themselves.
 */
import { expect, it } from 'vitest';
import { clientIdOf, clientNetwork } from '../../src/server/client-identity.js';

it('one /64 is one client, however its addresses are written', () => {
  const sameHost = [
    '2001:db8:1:2::9',
    '2001:db8:1:2:ffff:ffff:ffff:ffff',
    '2001:DB8:0001:0002:0:0:0:1',
    '2001:db8:1:2::1%eth0',
  ];
  expect(new Set(sameHost.map(clientNetwork))).toEqual(new Set(['2001:db8:1:2::/64']));
  expect(new Set(sameHost.map(clientIdOf)).size).toBe(1);
  expect(clientIdOf('2001:db8:1:3::9')).not.toBe(clientIdOf('2001:db8:1:2::9'));
});

it('an IPv4 address is one client, written plain or IPv4-mapped; anything else is itself', () => {
  expect(clientNetwork('203.0.113.7')).toBe('203.0.113.7');
  expect(clientIdOf('::ffff:203.0.113.7')).toBe(clientIdOf('203.0.113.7'));
  expect(clientIdOf('203.0.113.8')).not.toBe(clientIdOf('203.0.113.7'));
  expect(clientNetwork('unknown')).toBe('unknown');
});
