// A throwaway certificate for serving the local API over https in tests: self-signed (its own authority, so a
// client trusts it by taking it as an extra CA), for 127.0.0.1, ::1 and localhost, made with the openssl CLI.
import { createThrowawayCa } from '../tls/throwawayCa';
import type { TlsIdentity } from './server';

export function throwawayCertificate(): TlsIdentity {
  const authority = createThrowawayCa();
  try {
    return authority.selfSigned(['127.0.0.1', '::1', 'localhost']);
  } finally {
    authority.dispose();
  }
}
