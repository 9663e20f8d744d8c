// Pure helpers of the repository services: address classes, duration formatting, credential scrubbing.
import { goDuration } from '../../src/convert/repository.ts';
import { isLocalNetworkAddress } from '../../src/domain/network-address.ts';
import { withoutCredentials } from '../../src/services/repo-migration.service.ts';

describe('isLocalNetworkAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['10.0.0.1', true],
    ['172.16.5.4', true],
    ['172.31.255.255', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['0.0.0.0', true],
    ['224.0.0.1', true],
    ['::1', true],
    ['::', true],
    ['fe80::1', true],
    ['fd00::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:10.0.0.1', true],
    ['8.8.8.8', false],
    ['172.32.0.1', false],
    ['93.184.216.34', false],
    ['2606:4700::1111', false],
    ['::ffff:8.8.8.8', false],
  ])('%s → %s', (address, local) => {
    expect(isLocalNetworkAddress(address)).toBe(local);
  });
});

describe('durations', () => {
  it.each([
    [28800, '8h0m0s'],
    [600, '10m0s'],
    [5, '5s'],
    [0, '0s'],
  ])('formats %s as Go does', (seconds, text) => {
    expect(goDuration(seconds)).toBe(text);
  });
});

it('removes credentials from URLs in error text', () => {
  expect(withoutCredentials("fatal: unable to access 'https://bob:s3cret@example.com/x.git/': 403")).toBe(
    "fatal: unable to access 'https://example.com/x.git/': 403",
  );
});
