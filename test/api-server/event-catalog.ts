// What generated events look like: names, pages, clicked elements and person profiles.
import type { JsonObject } from './model';

export const EVENT_KINDS: readonly { name: string; weight: number }[] = [
  { name: '$pageview', weight: 40 },
  { name: '$autocapture', weight: 22 },
  { name: '$pageleave', weight: 12 },
  { name: 'logged_in', weight: 5 },
  { name: 'uploaded_file', weight: 6 },
  { name: 'downloaded_file', weight: 6 },
  { name: 'shared_file_link', weight: 3 },
  { name: 'deleted_file', weight: 2 },
  { name: 'signed_up', weight: 1.5 },
  { name: '$identify', weight: 1.5 },
  { name: 'upgraded_plan', weight: 0.6 },
  { name: 'paid_bill', weight: 0.4 },
];

/** Cumulative weights scaled to 2^32, for choosing a kind from one random uint32. */
export const KIND_THRESHOLDS: readonly number[] = (() => {
  const total = EVENT_KINDS.reduce((sum, k) => sum + k.weight, 0);
  let running = 0;
  return EVENT_KINDS.map((k) => {
    running += k.weight;
    return Math.floor((running / total) * 4294967296);
  });
})();

export function kindFor(random32: number): number {
  for (let i = 0; i < KIND_THRESHOLDS.length; i++) if (random32 < KIND_THRESHOLDS[i]!) return i;
  return 0;
}

export const PATHS: readonly string[] = [
  '/', '/', '/', '/files', '/files', '/files', '/files/{id}', '/files/{id}', '/pricing', '/pricing', '/signup',
  '/login', '/account/settings', '/account/billing', '/mariustechtips', '/blog/secure-file-sharing', '/blog/hedgehog-facts',
];

export const BROWSERS: readonly { name: string; versions: number[] }[] = [
  { name: 'Chrome', versions: [124, 125, 126] },
  { name: 'Chrome', versions: [126] },
  { name: 'Chrome', versions: [125] },
  { name: 'Safari', versions: [17.4, 17.5] },
  { name: 'Firefox', versions: [126, 127] },
  { name: 'Microsoft Edge', versions: [125, 126] },
  { name: 'Mobile Safari', versions: [17.5] },
  { name: 'Chrome iOS', versions: [126] },
];

export const SYSTEMS: readonly { os: string; version: string; device: string; width: number; height: number }[] = [
  { os: 'Mac OS X', version: '14.5.0', device: 'Desktop', width: 1512, height: 982 },
  { os: 'Windows', version: '10.0', device: 'Desktop', width: 1920, height: 1080 },
  { os: 'Windows', version: '10.0', device: 'Desktop', width: 1366, height: 768 },
  { os: 'Linux', version: '', device: 'Desktop', width: 2560, height: 1440 },
  { os: 'iOS', version: '17.5.1', device: 'Mobile', width: 390, height: 844 },
  { os: 'Android', version: '14.0.0', device: 'Mobile', width: 412, height: 915 },
];

export const COUNTRIES: readonly { code: string; name: string; city: string }[] = [
  { code: 'US', name: 'United States', city: 'San Francisco' },
  { code: 'US', name: 'United States', city: 'New York' },
  { code: 'GB', name: 'United Kingdom', city: 'London' },
  { code: 'DE', name: 'Germany', city: 'Berlin' },
  { code: 'FR', name: 'France', city: 'Paris' },
  { code: 'PL', name: 'Poland', city: 'Warsaw' },
  { code: 'BR', name: 'Brazil', city: 'São Paulo' },
  { code: 'IN', name: 'India', city: 'Bengaluru' },
  { code: 'JP', name: 'Japan', city: 'Tokyo' },
];

export const REFERRERS: readonly string[] = ['$direct', '$direct', 'https://www.google.com/', 'https://news.ycombinator.com/', 'https://twitter.com/', 'https://www.bing.com/'];

export const FIRST_NAMES = ['Maya', 'Lucas', 'Amara', 'Noah', 'Ines', 'Kenji', 'Sofia', 'Omar', 'Elena', 'Tariq', 'Priya', 'Jonas', 'Zoe', 'Mateo', 'Hana', 'Felix'];
export const LAST_NAMES = ['Okafor', 'Novak', 'Silva', 'Kowalski', 'Tanaka', 'Haddad', 'Muller', 'Rossi', 'Singh', 'Johansson', 'Dubois', 'Garcia'];
export const PLANS = ['personal/free', 'personal/pro', 'business/standard', 'business/enterprise'];

export interface ElementSpec {
  tag_name: string;
  text: string | null;
  attr_class: string[] | null;
  href: string | null;
  attr_id: string | null;
  nth_child: number;
  nth_of_type: number;
  attributes: JsonObject;
}

const el = (tag: string, text: string | null, classes: string[] | null, href: string | null, id: string | null, nth: number): ElementSpec => {
  const attributes: JsonObject = {};
  if (classes) attributes['attr__class'] = classes.join(' ');
  if (href) attributes['attr__href'] = href;
  if (id) attributes['attr__id'] = id;
  return { tag_name: tag, text, attr_class: classes, href, attr_id: id, nth_child: nth, nth_of_type: nth, attributes };
};

/** Clicked element chains, target first. */
export const CLICK_TARGETS: readonly ElementSpec[][] = [
  [el('button', 'Sign up', ['LemonButton', 'LemonButton--primary'], null, 'signup-submit', 1), el('form', null, ['SignupForm'], null, null, 1), el('main', null, null, null, null, 2), el('body', null, null, null, null, 2)],
  [el('a', 'Pricing', ['NavLink'], '/pricing', null, 3), el('nav', null, ['TopNav'], null, null, 1), el('header', null, null, null, null, 1), el('body', null, null, null, null, 2)],
  [el('button', 'Upload file', ['LemonButton', 'UploadButton'], null, 'upload', 1), el('div', null, ['FilesToolbar'], null, null, 1), el('main', null, null, null, null, 2), el('body', null, null, null, null, 2)],
  [el('button', 'Share', ['LemonButton', 'LemonButton--secondary'], null, null, 2), el('div', null, ['FileRow'], null, null, 4), el('ul', null, ['FileList'], null, null, 1), el('body', null, null, null, null, 2)],
  [el('a', 'Log in', ['NavLink'], '/login', null, 5), el('nav', null, ['TopNav'], null, null, 1), el('header', null, null, null, null, 1), el('body', null, null, null, null, 2)],
  [el('button', 'Upgrade to Pro', ['LemonButton', 'LemonButton--primary', 'UpgradeCTA'], null, 'upgrade', 1), el('section', null, ['PlanCard'], null, null, 2), el('main', null, null, null, null, 2), el('body', null, null, null, null, 2)],
  [el('span', 'Download', null, null, null, 1), el('button', null, ['LemonButton'], null, null, 3), el('div', null, ['FileRow'], null, null, 2), el('body', null, null, null, null, 2)],
];

/** PostHog's elements_chain text for an element list (target first). */
export function elementsChain(elements: readonly ElementSpec[]): string {
  return elements
    .map((e) => {
      const classes = e.attr_class ? '.' + [...e.attr_class].sort().join('.') : '';
      const attrs: [string, string][] = [];
      if (e.attr_id) attrs.push(['attr_id', e.attr_id]);
      if (e.href) attrs.push(['href', e.href]);
      attrs.push(['nth-child', String(e.nth_child)], ['nth-of-type', String(e.nth_of_type)]);
      if (e.text) attrs.push(['text', e.text]);
      for (const key of Object.keys(e.attributes).sort()) attrs.push([key, String(e.attributes[key])]);
      return `${e.tag_name}${classes}:${attrs.map(([k, v]) => `${k}="${v.replace(/"/g, '\\"')}"`).join('')}`;
    })
    .join(';');
}
