import type { NetworkRoute } from '../api';

/** The route in the log's words, e.g. "via proxy http://proxy.corp:3128 (http.proxy)". Holds no credentials. */
export function describeRoute(route: NetworkRoute): string {
  if (route.proxy) {
    return route.proxySource === 'option'
      ? `via proxy ${route.proxy} (http.proxy)`
      : `via proxy ${route.proxy} (${route.proxySource} from the environment)`;
  }
  const ignored = route.ignoredProxy
    ? ` (${route.ignoredProxy === 'option' ? 'http.proxy' : route.ignoredProxy} ignored: not an http:// or https:// URL)`
    : '';
  if (route.bypass?.reason === 'loopback') {
    return 'direct (this machine is never reached through a proxy)';
  }
  if (route.bypass?.reason === 'noProxy') {
    const list = route.bypass.source === 'option' ? 'http.noProxy' : route.bypass.source;
    return `direct (matches ${route.bypass.entry} in ${list})`;
  }
  return `direct${ignored}`;
}
