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
    const result = extraCertificates({ systemCertificates: true, platform: 'linux', env: { NODE_EXTRA_CA_CERTS: '/corp/ca.pem' }, readFile });
    assert.deepEqual(result.certificates, [pem('a').trim(), pem('b').trim(), pem('corp').trim()]);
    assert.deepEqual(result.sources, [`${LINUX_CA_BUNDLES[1]} (2 certificates)`, 'NODE_EXTRA_CA_CERTS /corp/ca.pem (1 certificate)']);
    assert.deepEqual(result.problems, []);
  });

  test('http.systemCertificates off: the system bundle is not read', () => {
    const { read, readFile } = files({ [LINUX_CA_BUNDLES[0]]: pem('a') });
    assert.deepEqual(extraCertificates({ systemCertificates: false, platform: 'linux', env: {}, readFile }).certificates, []);
    assert.deepEqual(read, []);
  });

  test('macOS and Windows: no system bundle is read (Node has no reader for their stores)', () => {
    const { read, readFile } = files({});
    for (const platform of ['darwin', 'win32'] as const) {
      assert.deepEqual(extraCertificates({ systemCertificates: true, platform, env: {}, readFile }), { certificates: [], sources: [], problems: [] });
    }
    assert.deepEqual(read, []);
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
    assert.match(extraCertificates({ systemCertificates: true, platform: 'linux', env: {}, readFile }).problems[0], /no system certificate bundle found/);
  });
});
