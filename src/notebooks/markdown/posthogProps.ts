import type { PhComponent, PhProps, PhPropValue } from './posthogModel';
import { skipWhitespace } from './posthogText';

/**
 * A component tag's text (`<Name props />` or `<Name props>…</Name>`, trimmed, over one or more lines)
 * read as PostHog's web app reads it: undefined when it is not a well-formed tag ("Invalid notebook
 * component tag"). Props that do not read are named in `errors` and left out.
 *
 * The tag's end: a text ending in `/>` is `<Name … />`; otherwise it must end in `</Name>` with a `>`
 * closing the opening tag before it. As in PostHog's pattern, the closing name may be a prefix of the
 * opening one (`<FooBar x></Foo>` is a `Foo` tag whose props start with "Bar").
 */
export function readComponentTag(raw: string): PhComponent | undefined {
  const fullName = /^<([A-Z][A-Za-z0-9]*)/.exec(raw)?.[1];
  if (fullName === undefined) {
    return undefined;
  }
  const found = tagParts(raw, fullName);
  if (!found) {
    return undefined;
  }
  const { props, errors } = readProps(found.props);
  const component: PhComponent = { type: 'component', tagName: found.name, props, raw };
  if (errors.length > 0) {
    component.errors = errors;
  }
  return component;
}

function tagParts(raw: string, fullName: string): { name: string; props: string } | undefined {
  if (raw.endsWith('/>')) {
    return { name: fullName, props: raw.slice(1 + fullName.length, raw.length - 2) };
  }
  for (let length = fullName.length; length >= 1; length--) {
    const name = fullName.slice(0, length);
    const closing = `</${name}>`;
    if (!raw.endsWith(closing)) {
      continue;
    }
    const openingEnd = raw.indexOf('>', 1 + length);
    if (openingEnd !== -1 && openingEnd + 1 <= raw.length - closing.length) {
      return { name, props: raw.slice(1 + length, openingEnd) };
    }
  }
  return undefined;
}

const PROP_NAME = /[A-Za-z_][A-Za-z0-9_-]*/y;
const BARE_VALUE = /[^\s/>]*/y;

/**
 * Props as PostHog reads them: `name` (true), `name="…"` (JSON string, else the text with backslash escapes),
 * `name='…'`, `name={…}` (balanced braces; JSON, true/false/null or a number, else the text as written) and
 * `name=bare`. Quoted values have `&quot; &#39; &apos; &lt; &gt; &amp;` decoded. A prop given twice keeps
 * the last value. Reading stops at a character that cannot start a prop name.
 */
export function readProps(source: string): { props: PhProps; errors: string[] } {
  // A plain object, as PostHog's: a prop named __proto__ behaves as it does there.
  const props: PhProps = {};
  const errors: string[] = [];
  let index = 0;
  while (index < source.length) {
    index = skipWhitespace(source, index);
    if (index >= source.length) {
      break;
    }
    PROP_NAME.lastIndex = index;
    const name = PROP_NAME.exec(source)?.[0];
    if (name === undefined) {
      errors.push(`Could not parse props near: ${source.slice(index, index + 24)}`);
      break;
    }
    index = skipWhitespace(source, index + name.length);
    if (source[index] !== '=') {
      props[name] = true;
      continue;
    }
    const value = readValue(source, skipWhitespace(source, index + 1));
    index = value.next;
    if ('error' in value) {
      errors.push(value.error);
    } else {
      props[name] = value.value;
    }
  }
  return { props, errors };
}

type ValueRead = { readonly value: PhPropValue; readonly next: number } | { readonly error: string; readonly next: number };

function readValue(source: string, start: number): ValueRead {
  const first = source[start];
  if (first === '"' || first === "'") {
    return readQuoted(source, start, first);
  }
  if (first === '{') {
    const end = balancedEnd(source, start);
    if (end === -1) {
      return { error: 'Unclosed expression prop value', next: source.length };
    }
    return { value: expressionValue(source.slice(start, end)), next: end };
  }
  BARE_VALUE.lastIndex = start;
  const bare = BARE_VALUE.exec(source)?.[0] ?? '';
  return { value: expressionValue(bare), next: start + bare.length };
}

/** A quoted value: a backslash takes the next character as it is; a double-quoted JSON string reads as JSON. */
function readQuoted(source: string, start: number, quote: string): ValueRead {
  const parts: string[] = [];
  let partStart = start + 1;
  let index = start + 1;
  while (index < source.length) {
    const char = source[index];
    if (char === '\\' && index + 1 < source.length) {
      parts.push(source.slice(partStart, index));
      partStart = index + 1;
      index += 2;
      continue;
    }
    if (char === quote) {
      parts.push(source.slice(partStart, index));
      return { value: decodeEntities(quotedText(source.slice(start, index + 1), quote) ?? parts.join('')), next: index + 1 };
    }
    index++;
  }
  return { error: 'Unclosed quoted prop value', next: source.length };
}

function quotedText(literal: string, quote: string): string | undefined {
  if (quote !== '"') {
    return undefined;
  }
  try {
    const parsed: unknown = JSON.parse(literal);
    return typeof parsed === 'string' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function decodeEntities(text: string): string {
  if (!text.includes('&')) {
    return text;
  }
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * After a `{`, the index after the `}` that balances it; -1 when none. Quotes (`"` or `'`) hide braces until
 * the same quote comes again not right after a backslash (so `"\\"` does not close: PostHog's known misreading
 * of a string ending in a backslash).
 */
function balancedEnd(source: string, start: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let index = start; index < source.length; index++) {
    const char = source[index];
    if (quote !== undefined) {
      if (char === quote && source[index - 1] !== '\\') {
        quote = undefined;
      }
      continue;
    }
    if (char === '"' || char === "'") {
      quote = char;
    } else if (char === '{') {
      depth++;
    } else if (char === '}' && --depth === 0) {
      return index + 1;
    }
  }
  return -1;
}

/** `{…}` or a bare value: true, false, null, a decimal number, else JSON, else the text as written (trimmed). */
function expressionValue(raw: string): PhPropValue {
  const trimmed = raw.trim();
  const inner = trimmed.startsWith('{') && trimmed.endsWith('}') ? trimmed.slice(1, -1).trim() : trimmed;
  if (inner === 'true') {
    return true;
  }
  if (inner === 'false') {
    return false;
  }
  if (inner === 'null') {
    return null;
  }
  if (/^-?\d+(\.\d+)?$/.test(inner)) {
    return Number(inner);
  }
  try {
    return JSON.parse(inner) as PhPropValue;
  } catch {
    return trimmed;
  }
}
