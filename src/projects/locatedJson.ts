/** A 1-based line and column in a text. */
export interface TextLocation {
  readonly line: number;
  readonly column: number;
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface LocatedJson {
  readonly value: JsonValue;
  /** Where each object member's key starts, by path ("name", "readOnly.id"; array items as "list.0"). */
  readonly keys: ReadonlyMap<string, TextLocation>;
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly location: TextLocation,
  ) {
    super(message);
  }
}

/**
 * JSON.parse, plus where every key is, so that a refusal can point at a field's line; duplicate keys
 * (which JSON.parse silently resolves to the last) are refused.
 */
export function parseLocatedJson(text: string): LocatedJson {
  const parser = new Parser(text);
  const value = parser.document();
  return { value, keys: parser.keys };
}

export function locationAt(text: string, offset: number): TextLocation {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset && index < text.length; index++) {
    if (text[index] === '\n') {
      line++;
      lineStart = index + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

class Parser {
  readonly keys = new Map<string, TextLocation>();
  private offset = 0;

  constructor(private readonly text: string) {}

  document(): JsonValue {
    this.skipWhitespace();
    if (this.offset >= this.text.length) {
      this.fail('The document is empty; it must be a JSON object');
    }
    const value = this.value('');
    this.skipWhitespace();
    if (this.offset < this.text.length) {
      this.fail('Unexpected text after the end of the JSON object');
    }
    return value;
  }

  private value(path: string): JsonValue {
    this.skipWhitespace();
    const char = this.text[this.offset];
    switch (char) {
      case '{':
        return this.object(path);
      case '[':
        return this.array(path);
      case '"':
        return this.string();
      case 't':
        return this.literal('true', true);
      case 'f':
        return this.literal('false', false);
      case 'n':
        return this.literal('null', null);
      default:
        if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) {
          return this.number();
        }
        return this.fail(char === undefined ? 'Unexpected end of the document' : `Unexpected character ${JSON.stringify(char)}`);
    }
  }

  private object(path: string): JsonValue {
    const result: { [key: string]: JsonValue } = {};
    this.offset++;
    this.skipWhitespace();
    if (this.text[this.offset] === '}') {
      this.offset++;
      return result;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.offset] !== '"') {
        this.fail(this.text[this.offset] === '}' ? 'Trailing comma before "}"' : 'Expected a property name in double quotes');
      }
      const keyStart = this.offset;
      const key = this.string();
      const keyPath = path ? `${path}.${key}` : key;
      if (Object.prototype.hasOwnProperty.call(result, key)) {
        this.fail(`"${key}" appears twice`, keyStart);
      }
      this.keys.set(keyPath, locationAt(this.text, keyStart));
      this.skipWhitespace();
      this.expect(':', `Expected ":" after "${key}"`);
      result[key] = this.value(keyPath);
      this.skipWhitespace();
      if (this.text[this.offset] === ',') {
        this.offset++;
        continue;
      }
      this.expect('}', 'Expected "," or "}" after a property value');
      return result;
    }
  }

  private array(path: string): JsonValue {
    const result: JsonValue[] = [];
    this.offset++;
    this.skipWhitespace();
    if (this.text[this.offset] === ']') {
      this.offset++;
      return result;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.offset] === ']') {
        this.fail('Trailing comma before "]"');
      }
      result.push(this.value(`${path}.${result.length}`));
      this.skipWhitespace();
      if (this.text[this.offset] === ',') {
        this.offset++;
        continue;
      }
      this.expect(']', 'Expected "," or "]" after an array item');
      return result;
    }
  }

  private string(): string {
    const start = this.offset;
    this.offset++;
    while (this.offset < this.text.length) {
      const char = this.text[this.offset];
      if (char === '"') {
        this.offset++;
        try {
          return JSON.parse(this.text.slice(start, this.offset)) as string;
        } catch {
          return this.fail('Invalid escape or control character in a string', start);
        }
      }
      if (char === '\n') {
        break;
      }
      this.offset += char === '\\' ? 2 : 1;
    }
    return this.fail('A string is not closed with a double quote', start);
  }

  private number(): number {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.offset));
    if (!match) {
      this.fail('Invalid number');
    }
    this.offset += match[0].length;
    return Number(match[0]);
  }

  private literal<T extends JsonValue>(word: string, value: T): T {
    if (this.text.startsWith(word, this.offset)) {
      this.offset += word.length;
      return value;
    }
    return this.fail(`Unexpected word; expected ${word}, a string in double quotes, or a number`);
  }

  private expect(char: string, message: string): void {
    if (this.text[this.offset] !== char) {
      this.fail(this.offset >= this.text.length ? 'Unexpected end of the document' : message);
    }
    this.offset++;
  }

  private skipWhitespace(): void {
    while (this.offset < this.text.length && ' \t\n\r'.includes(this.text[this.offset]!)) {
      this.offset++;
    }
  }

  private fail(message: string, offset = this.offset): never {
    throw new JsonSyntaxError(message, locationAt(this.text, offset));
  }
}
