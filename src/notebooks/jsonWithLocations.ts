/**
 * A strict JSON parser (RFC 8259) that remembers where each value starts, so that a refused save can
 * say "line 12, column 5: content.content[3].type must be a string" instead of a bare message.
 * Duplicate keys are an error: the editor would show one value while the server got the other.
 */
export interface Location {
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
  readonly offset: number;
}

export class JsonSyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly location: Location,
  ) {
    super(`Line ${location.line}, column ${location.column}: ${reason}`);
  }
}

export interface ParsedJson {
  readonly value: unknown;
  /** Where the value at a path starts; keys are JSON-pointer-like paths: "", "/content/content/3/type". */
  readonly locations: ReadonlyMap<string, Location>;
  /** Where the key of an object member is written (for "unknown field" errors). */
  readonly keyLocations: ReadonlyMap<string, Location>;
}

export function parseJsonWithLocations(text: string): ParsedJson {
  return new Parser(text).parseDocument();
}

export function pointer(path: readonly (string | number)[]): string {
  return path.map((part) => `/${String(part)}`).join('');
}

/** A path as a reader writes it: content.content[3].type */
export function describePath(path: readonly (string | number)[]): string {
  let out = '';
  for (const part of path) {
    out += typeof part === 'number' ? `[${part}]` : out ? `.${part}` : part;
  }
  return out || '(document)';
}

class Parser {
  private position = 0;
  private readonly locations = new Map<string, Location>();
  private readonly keyLocations = new Map<string, Location>();
  private readonly lineStarts: number[] = [0];

  constructor(private readonly text: string) {
    for (let index = 0; index < text.length; index++) {
      if (text.charCodeAt(index) === 10) {
        this.lineStarts.push(index + 1);
      }
    }
  }

  parseDocument(): ParsedJson {
    if (this.text.charCodeAt(0) === 0xfeff) {
      this.position = 1;
    }
    this.skipWhitespace();
    if (this.position >= this.text.length) {
      this.fail('the document is empty; expected a JSON object');
    }
    const value = this.parseValue([]);
    this.skipWhitespace();
    if (this.position < this.text.length) {
      this.fail(`unexpected ${this.describeHere()} after the end of the JSON value`);
    }
    return { value, locations: this.locations, keyLocations: this.keyLocations };
  }

  locationAt(offset: number): Location {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.lineStarts[middle]! <= offset) {
        low = middle;
      } else {
        high = middle - 1;
      }
    }
    return { line: low + 1, column: offset - this.lineStarts[low]! + 1, offset };
  }

  private parseValue(path: (string | number)[]): unknown {
    this.skipWhitespace();
    this.locations.set(pointer(path), this.locationAt(this.position));
    const char = this.text[this.position];
    switch (char) {
      case '{':
        return this.parseObject(path);
      case '[':
        return this.parseArray(path);
      case '"':
        return this.parseString();
      case 't':
        return this.parseLiteral('true', true);
      case 'f':
        return this.parseLiteral('false', false);
      case 'n':
        return this.parseLiteral('null', null);
      default:
        if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) {
          return this.parseNumber();
        }
        return this.fail(`expected a value but found ${this.describeHere()}`);
    }
  }

  private parseObject(path: (string | number)[]): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    this.position++;
    this.skipWhitespace();
    if (this.text[this.position] === '}') {
      this.position++;
      return result;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.position] !== '"') {
        this.fail(
          this.text[this.position] === '}'
            ? 'trailing comma before "}"'
            : `expected a property name in double quotes but found ${this.describeHere()}`,
        );
      }
      const keyLocation = this.locationAt(this.position);
      const key = this.parseString();
      if (Object.prototype.hasOwnProperty.call(result, key)) {
        throw new JsonSyntaxError(`duplicate property "${key}"`, keyLocation);
      }
      this.keyLocations.set(pointer([...path, key]), keyLocation);
      this.skipWhitespace();
      this.expect(':', `expected ":" after "${key}"`);
      Object.defineProperty(result, key, { value: this.parseValue([...path, key]), enumerable: true, writable: true, configurable: true });
      this.skipWhitespace();
      const next = this.text[this.position];
      if (next === ',') {
        this.position++;
        continue;
      }
      if (next === '}') {
        this.position++;
        return result;
      }
      this.fail(`expected "," or "}" after the value of "${key}" but found ${this.describeHere()}`);
    }
  }

  private parseArray(path: (string | number)[]): unknown[] {
    const result: unknown[] = [];
    this.position++;
    this.skipWhitespace();
    if (this.text[this.position] === ']') {
      this.position++;
      return result;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.position] === ']') {
        this.fail('trailing comma before "]"');
      }
      result.push(this.parseValue([...path, result.length]));
      this.skipWhitespace();
      const next = this.text[this.position];
      if (next === ',') {
        this.position++;
        continue;
      }
      if (next === ']') {
        this.position++;
        return result;
      }
      this.fail(`expected "," or "]" in the list but found ${this.describeHere()}`);
    }
  }

  private parseString(): string {
    const start = this.position;
    this.position++;
    let result = '';
    for (;;) {
      const char = this.text[this.position];
      if (char === undefined) {
        throw new JsonSyntaxError('unterminated string', this.locationAt(start));
      }
      if (char === '"') {
        this.position++;
        return result;
      }
      if (char === '\\') {
        result += this.parseEscape();
        continue;
      }
      if (char < ' ') {
        this.fail(char === '\n' ? 'line break inside a string (write \\n)' : 'control character inside a string');
      }
      result += char;
      this.position++;
    }
  }

  private parseEscape(): string {
    const escaped = this.text[this.position + 1];
    const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
    if (escaped !== undefined && escaped in simple) {
      this.position += 2;
      return simple[escaped]!;
    }
    if (escaped === 'u') {
      const hex = this.text.slice(this.position + 2, this.position + 6);
      if (/^[0-9a-fA-F]{4}$/.test(hex)) {
        this.position += 6;
        return String.fromCharCode(parseInt(hex, 16));
      }
    }
    return this.fail('invalid escape sequence in a string');
  }

  private parseNumber(): number {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(this.position, this.position + 400));
    if (!match) {
      return this.fail('invalid number');
    }
    this.position += match[0].length;
    return Number(match[0]);
  }

  private parseLiteral<T>(word: string, value: T): T {
    if (this.text.startsWith(word, this.position)) {
      this.position += word.length;
      return value;
    }
    return this.fail(`expected a value but found ${this.describeHere()}`);
  }

  private expect(char: string, message: string): void {
    if (this.text[this.position] !== char) {
      this.fail(`${message} but found ${this.describeHere()}`);
    }
    this.position++;
  }

  private skipWhitespace(): void {
    while (this.position < this.text.length) {
      const code = this.text.charCodeAt(this.position);
      if (code === 32 || code === 9 || code === 10 || code === 13) {
        this.position++;
      } else if (code === 47 && this.text[this.position + 1] === '/') {
        this.fail('comments are not allowed in JSON');
      } else {
        return;
      }
    }
  }

  private describeHere(): string {
    const char = this.text[this.position];
    if (char === undefined) {
      return 'the end of the document';
    }
    const word = /^[A-Za-z_]\w*/.exec(this.text.slice(this.position, this.position + 40));
    return word ? `"${word[0]}"` : `"${char}"`;
  }

  private fail(reason: string): never {
    throw new JsonSyntaxError(reason, this.locationAt(this.position));
  }
}
