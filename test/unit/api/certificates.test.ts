import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { extraCertificates } from '../../../src/api';
import { LINUX_CA_BUNDLES } from '../../../src/api/certificates';

const pem = (name: string) => `-----BEGIN CERTIFICATE-----\n${name}\n-----END CERTIFICATE-----\n`;

function files(contents: Record<string, string>) {
  const read: string[] = [];
  const readFile = (path: string) => {
    read.push(path);
    if (!(path in contents)) {
      throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
    }
    return contents[path];
  };
  return { read, readFile };
}

describe('extraCertificates', () => {
  test('on Linux: the first system bundle found, then NODE_EXTRA_CA_CERTS', () => {
    const { readFile } = files({ [LINUX_CA_BUNDLES[1]]: pem('a') + pem('b'), '/corp/ca.pem': pem('corp') });
    const result = extraCertificates({ systemCertificates: true, platform: 'linux', env: { NODE_EXTRA_CA_CERTS: '/corp/ca.pem' }, readFile, systemStore: null });
    assert.deepEqual(result.certificates, [pem('a').trim(), pem('b').trim(), pem('corp').trim()]);
    assert.deepEqual(result.sources, [`${LINUX_CA_BUNDLES[1]} (2 certificates)`, 'NODE_EXTRA_CA_CERTS /corp/ca.pem (1 certificate)']);
    assert.deepEqual(result.problems, []);
  });

  test('http.systemCertificates off: the system bundle is not read', () => {
    const { read, readFile } = files({ [LINUX_CA_BUNDLES[0]]: pem('a') });
    assert.deepEqual(extraCertificates({ systemCertificates: false, platform: 'linux', env: {}, readFile, systemStore: null }).certificates, []);
    assert.deepEqual(read, []);
  });

  test('macOS and Windows on Node 20: no system certificates are read (Node has no reader for their stores)', () => {
    const { read, readFile } = files({});
    for (const platform of ['darwin', 'win32'] as const) {
      const result = extraCertificates({ systemCertificates: true, platform, env: {}, readFile, systemStore: null });
      assert.deepEqual(result, { certificates: [], sources: [], problems: [] });
    }
    assert.deepEqual(read, []);
  });

  test("where Node reads the system's store itself (Node 22.15+), that store is used on every platform", () => {
    const { read, readFile } = files({ [LINUX_CA_BUNDLES[0]]: pem('bundle') });
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      const result = extraCertificates({ systemCertificates: true, platform, env: {}, readFile, systemStore: () => [pem('store')] });
      assert.deepEqual(result.certificates, [pem('store')]);
      assert.deepEqual(result.sources, ["the system's store (1 certificate)"]);
    }
    assert.deepEqual(read, []);
    const off = extraCertificates({ systemCertificates: false, env: {}, readFile, systemStore: () => assert.fail('not read when off') });
    assert.deepEqual(off.certificates, []);
  });

  test('a missing or empty NODE_EXTRA_CA_CERTS file is reported, not fatal', () => {
    const { readFile } = files({ '/empty.pem': 'nothing here' });
    const missing = extraCertificates({ systemCertificates: false, env: { NODE_EXTRA_CA_CERTS: '/nope.pem' }, readFile });
    assert.deepEqual(missing.certificates, []);
    assert.match(missing.problems[0], /NODE_EXTRA_CA_CERTS names \/nope\.pem, which could not be read \(no such file\)/);
    const empty = extraCertificates({ systemCertificates: false, env: { NODE_EXTRA_CA_CERTS: '/empty.pem' }, readFile });
    assert.match(empty.problems[0], /holds no PEM certificate/);
  });

  test('no system bundle anywhere is reported', () => {
    const { readFile } = files({});
    assert.match(extraCertificates({ systemCertificates: true, platform: 'linux', env: {}, readFile, systemStore: null }).problems[0], /no system certificate bundle found/);
  });
});
