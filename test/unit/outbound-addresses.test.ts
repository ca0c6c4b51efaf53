import { describe, expect, test } from 'bun:test';
import { canonicalAddress, isLoopback, isPrivateAddress } from '../../src/connectors/ip-ranges';
import { SourceAddressPolicy, type SourceAddress } from '../../src/connectors/source-address';
import { AppError } from '../../src/errors/app-error';
import { SourceError } from '../../src/connectors/source-error';

describe('IPv6 forms that embed an IPv4 address are judged by it', () => {
  const privateSpellings = [
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::7f00:1', 'IPv4-compatible loopback in hex'],
    ['::a9fe:a9fe', 'IPv4-compatible link-local (cloud metadata)'],
    ['::ffff:127.0.0.1', 'mapped'],
    ['::ffff:7f00:1', 'mapped in hex'],
    ['::ffff:0:7f00:1', 'SIIT translated'],
    ['::ffff:0:10.0.0.1', 'SIIT translated, dotted'],
    ['64:ff9b::7f00:1', 'NAT64 well-known'],
    ['64:ff9b::169.254.169.254', 'NAT64 well-known, dotted'],
    ['64:ff9b:1::a9fe:a9fe', 'NAT64 local-use'],
    ['64:ff9b:1:2::1', 'NAT64 local-use in a form naming no IPv4 host'],
    ['64:ff9b:0:1::1', 'NAT64 well-known prefix outside its /96'],
    ['2002:7f00:1::1', '6to4 of loopback'],
    ['2002:a9fe:a9fe::', '6to4 of link-local'],
    ['2002:c0a8:0101::1', '6to4 of 192.168.1.1'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo, client 127.0.0.1 (inverted)'],
    ['2001::ffff:ffff:f5ff:fffe', 'Teredo, client 10.0.0.1 (inverted)'],
    ['[::1]', 'IPv6 loopback in brackets'],
    ['::', 'unspecified'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['fd00::1', 'unique local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['100::1', 'discard-only'],
  ] as const;
  test.each(privateSpellings)('%s (%s) is not public', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  const publicSpellings = [
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '64:ff9b:1::808:808',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
    '2606:4700::1111',
    '8.8.8.8',
  ];
  test.each(publicSpellings)('%s is public', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  test('every spelling of loopback is this machine, and one canonical address', () => {
    for (const address of [
      '127.0.0.1',
      '127.1.2.3',
      '0.0.0.0',
      '::1',
      '::',
      '::ffff:127.0.0.1',
      '::127.0.0.1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::',
      '2001::ffff:ffff:80ff:fffe',
    ]) {
      expect({ address, loopback: isLoopback(address) }).toEqual({ address, loopback: true });
    }
    expect(canonicalAddress('::ffff:0a00:0001')).toBe('10.0.0.1');
    expect(canonicalAddress('[2606:4700:0::1111]')).toBe('2606:4700:0:0:0:0:0:1111');
    expect(canonicalAddress('not an address')).toBeUndefined();
  });
});

describe('the outbound-address policy', () => {
  const names: Record<string, string[]> = {
    'temporal.internal': ['10.9.8.7'],
    'rebound.example': ['127.0.0.1'],
    'public.example': ['93.184.215.14'],
    'mixed.example': ['93.184.215.14', '::1'],
  };
  const resolve = async (host: string) => names[host] ?? [];
  const policy = (allowPrivate: boolean) =>
    new SourceAddressPolicy(
      {
        endpoints: [
          { what: 'the service’s Temporal Web UI', host: '127.0.0.1', port: 8233 },
          { what: 'the service’s own API', host: '0.0.0.0', port: 3000 },
          { what: 'the service’s own Temporal server', host: 'temporal.internal', port: 7233 },
        ],
        lakeBucket: 'oxbow-lake',
      },
      { allowPrivate, resolve, localAddresses: () => ['127.0.0.1', '192.168.7.20', 'fe80::1'] },
    );
  const http = (url: string): SourceAddress => ({ kind: 'http', url: new URL(url) });
  const refusal = async (address: SourceAddress, allowPrivate = true) => {
    try {
      await policy(allowPrivate).check(address);
      return 'allowed';
    } catch (error) {
      if (error instanceof AppError) return error.code;
      if (error instanceof SourceError) return `SourceError:${error.failure}`;
      throw error;
    }
  };

  test('an endpoint of the service is refused on every address of its host, on its port only', async () => {
    for (const host of [
      '127.0.0.1',
      '127.0.0.2',
      '[::1]',
      '[::ffff:127.0.0.1]',
      '[::127.0.0.1]',
      '[64:ff9b::7f00:1]',
      '[2002:7f00:1::1]',
      '0.0.0.0',
      '192.168.7.20',
      'rebound.example',
    ]) {
      const url = `http://${host}:8233/api/v1/namespaces/default/workflows`;
      expect({ host, outcome: await refusal(http(url)) }).toEqual({ host, outcome: 'SOURCE_NOT_ALLOWED' });
    }
    // A listener bound to every address is reached through this machine's own addresses too.
    expect(await refusal(http('http://192.168.7.20:3000/'))).toBe('SOURCE_NOT_ALLOWED');
    expect(await refusal(http('http://[fe80::1]:3000/'))).toBe('SOURCE_NOT_ALLOWED');
    // A name for the remote Temporal, or its address.
    expect(await refusal({ kind: 'postgres', host: '10.9.8.7', port: 7233, database: 'x' })).toBe('SOURCE_NOT_ALLOWED');
    expect(await refusal({ kind: 'tcp', host: 'temporal.internal', port: 7233 })).toBe('SOURCE_NOT_ALLOWED');
    // Other ports of the same machine are private addresses like any other.
    expect(await refusal(http('http://127.0.0.1:8234/'))).toBe('allowed');
    expect(await refusal(http('http://127.0.0.1:8234/'), false)).toBe('SOURCE_NOT_ALLOWED');
  });

  test('the refusal names what is there', async () => {
    const error = await policy(true)
      .check(http('http://[::ffff:7f00:1]:8233/'))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message).toContain('Temporal Web UI');
  });

  test('one private address among a name’s answers refuses it', async () => {
    expect(await refusal(http('https://public.example/'), false)).toBe('allowed');
    expect(await refusal(http('https://mixed.example/'), false)).toBe('SOURCE_NOT_ALLOWED');
  });

  test('the lake’s bucket, on S3 or through an HTTP URL into AWS', async () => {
    expect(await refusal({ kind: 's3', endpoint: undefined, region: 'us-east-1', bucket: 'oxbow-lake' })).toBe('SOURCE_NOT_ALLOWED');
    expect(await refusal(http('https://oxbow-lake.s3.eu-west-1.amazonaws.com/ws/x.parquet'))).toBe('SOURCE_NOT_ALLOWED');
    expect(await refusal(http('https://s3.amazonaws.com/oxbow-lake/ws/x.parquet'))).toBe('SOURCE_NOT_ALLOWED');
    expect(await refusal({ kind: 'tcp', host: 'oxbow-lake.s3.amazonaws.com', port: 443 })).toBe('SOURCE_NOT_ALLOWED');
  });

  test('a region that no host name can hold is the source’s error, not the service’s', async () => {
    for (const region of ["us-east-1', ENDPOINT '127.0.0.1:1', USE_SSL 'false", 'x y/#?@:[]', 'EU-WEST-1']) {
      expect(await refusal({ kind: 's3', endpoint: undefined, region, bucket: 'data' })).toBe('SourceError:invalid');
    }
  });

  test('decimal, octal, hexadecimal and short IPv4 forms stay refused (system resolver)', async () => {
    const real = new SourceAddressPolicy({ endpoints: [] }, { allowPrivate: false });
    for (const host of ['2130706433', '0177.0.0.1', '0x7f.0.0.1', '0x7f000001', '127.1', '017700000001', '0251.0376.0251.0376']) {
      const outcome = await real.check({ kind: 'postgres', host, port: 5432, database: 'x' }).then(
        () => 'allowed',
        (error: unknown) => (error instanceof AppError ? error.code : error instanceof SourceError ? 'unresolved' : 'thrown'),
      );
      expect({ host, outcome }).not.toEqual({ host, outcome: 'allowed' });
      expect({ host, outcome }).not.toEqual({ host, outcome: 'thrown' });
    }
    // The URL parser reads them as the address they spell, which the policy then refuses.
    for (const url of ['http://2130706433/', 'http://0177.0.0.1/', 'http://0x7f.1/', 'http://127.1/']) {
      expect(await real.check(http(url)).catch((error: unknown) => (error as AppError).code)).toBe('SOURCE_NOT_ALLOWED');
    }
  });
});
