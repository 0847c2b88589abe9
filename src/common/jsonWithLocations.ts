/**
 * JSON for documents people edit: parsed strictly (RFC 8259; duplicate keys refused, since the editor
 * would show one value while the server got the other), and able to say where a value or key is
 * written, so that a refused save can say "line 12, column 5: content.content[3].type must be a
 * string" instead of a bare message.
 *
 * Valid text is parsed by JSON.parse and locations are found only when asked for, by walking the text
 * along the path: saving a 5 MB notebook must not build a location for each of its values. Invalid
 * text goes through a strict parser whose only job is a located, readable error.
 */
export interface Location {
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
  readonly offset: number;
}

export type JsonPath = readonly (string | number)[];

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
  /** Where the value at a path starts (the document itself at []). */
  locate(path: JsonPath): Location | undefined;
  /** Where the key of the object member at a path is written. */
  locateKey(path: JsonPath): Location | undefined;
}

export function parseJsonWithLocations(text: string): ParsedJson {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start));
  } catch {
    new StrictParser(text, start).parseDocument();
    throw new JsonSyntaxError('invalid JSON', new Lines(text).at(start));
  }
  const walker = new Walker(text, start);
  walker.checkDuplicateKeys();
  return {
    value,
    locate: (path) => walker.find(path, 'value'),
    locateKey: (path) => walker.find(path, 'key'),
  };
}

/** A path as a reader writes it: content.content[3].type */
export function describePath(path: JsonPath): string {
  let out = '';
  for (const part of path) {
    out += typeof part === 'number' ? `[${part}]` : out ? `.${part}` : part;
  }
  return out || '(document)';
}

/** Line and column of an offset, by binary search over the line starts. */
class Lines {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
      this.starts.push(index + 1);
    }
  }

  at(offset: number): Location {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle]! <= offset) {
        low = middle;
      } else {
        high = middle - 1;
      }
    }
    return { line: low + 1, column: offset - this.starts[low]! + 1, offset };
  }
}

/** Moves over text that JSON.parse has accepted, without building values. */
class Walker {
  private position = 0;
  private lines: Lines | undefined;

  constructor(
    private readonly text: string,
    private readonly start: number,
  ) {}

  checkDuplicateKeys(): void {
    this.position = this.start;
    this.checkValue();
  }

  find(path: JsonPath, what: 'value' | 'key'): Location | undefined {
    this.position = this.start;
    this.skipWhitespace();
    let keyOffset: number | undefined;
    for (const part of path) {
      const found = typeof part === 'number' ? this.enterArrayItem(part) : this.enterObjectMember(part);
      if (found === undefined) {
        return undefined;
      }
      keyOffset = typeof part === 'string' ? found : undefined;
    }
    const offset = what === 'value' ? this.position : keyOffset;
    if (offset === undefined) {
      return undefined;
    }
    this.lines ??= new Lines(this.text);
    return this.lines.at(offset);
  }

  /** At an object: moves to the member's value and returns where its key starts. */
  private enterObjectMember(name: string): number | undefined {
    if (this.text[this.position] !== '{') {
      return undefined;
    }
    this.position++;
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.position] === '}') {
        return undefined;
      }
      const keyOffset = this.position;
      const key = this.readKey();
      this.skipWhitespace();
      this.position++; // ':'
      this.skipWhitespace();
      if (key === name) {
        return keyOffset;
      }
      this.skipValue();
      this.skipWhitespace();
      if (this.text[this.position] === ',') {
        this.position++;
      }
    }
  }

  /** At an array: moves to the item's value. */
  private enterArrayItem(index: number): number | undefined {
    if (this.text[this.position] !== '[') {
      return undefined;
    }
    this.position++;
    for (let item = 0; ; item++) {
      this.skipWhitespace();
      if (this.text[this.position] === ']') {
        return undefined;
      }
      if (item === index) {
        return this.position;
      }
      this.skipValue();
      this.skipWhitespace();
      if (this.text[this.position] === ',') {
        this.position++;
      }
    }
  }

  private checkValue(): void {
    this.skipWhitespace();
    const char = this.text[this.position];
    if (char === '{') {
      this.checkObject();
    } else if (char === '[') {
      this.position++;
      for (;;) {
        this.skipWhitespace();
        if (this.text[this.position] === ']') {
          this.position++;
          return;
        }
        this.checkValue();
        this.skipWhitespace();
        if (this.text[this.position] === ',') {
          this.position++;
        }
      }
    } else {
      this.skipValue();
    }
  }

  private checkObject(): void {
    const keys = new Set<string>();
    this.position++;
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.position] === '}') {
        this.position++;
        return;
      }
      const keyOffset = this.position;
      const key = this.readKey();
      if (keys.has(key)) {
        this.lines ??= new Lines(this.text);
        throw new JsonSyntaxError(`duplicate property "${key}"`, this.lines.at(keyOffset));
      }
      keys.add(key);
      this.skipWhitespace();
      this.position++; // ':'
      this.checkValue();
      this.skipWhitespace();
      if (this.text[this.position] === ',') {
        this.position++;
      }
    }
  }

  private readKey(): string {
    const start = this.position;
    this.skipString();
    const raw = this.text.slice(start + 1, this.position - 1);
    return raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
  }

  private skipValue(): void {
    const char = this.text[this.position];
    if (char === '"') {
      this.skipString();
      return;
    }
    if (char === '{' || char === '[') {
      let depth = 0;
      do {
        const current = this.text[this.position];
        if (current === '"') {
          this.skipString();
          continue;
        }
        if (current === '{' || current === '[') {
          depth++;
        } else if (current === '}' || current === ']') {
          depth--;
        }
        this.position++;
      } while (depth > 0);
      return;
    }
    while (this.position < this.text.length && !',}] \t\r\n'.includes(this.text[this.position]!)) {
      this.position++;
    }
  }

  private skipString(): void {
    let index = this.position + 1;
    for (;;) {
      const quote = this.text.indexOf('"', index);
      let backslashes = 0;
      while (this.text[quote - 1 - backslashes] === '\\') {
        backslashes++;
      }
      if (backslashes % 2 === 0) {
        this.position = quote + 1;
        return;
      }
      index = quote + 1;
    }
  }

  private skipWhitespace(): void {
    let code = this.text.charCodeAt(this.position);
    while (code === 32 || code === 9 || code === 10 || code === 13) {
      code = this.text.charCodeAt(++this.position);
    }
  }
}

/** Parses text that JSON.parse refused, to say what is wrong and where. */
class StrictParser {
  private readonly lines: Lines;

  constructor(
    private readonly text: string,
    private position: number,
  ) {
    this.lines = new Lines(text);
  }

  parseDocument(): void {
    this.skipWhitespace();
    if (this.position >= this.text.length) {
      this.fail('the document is empty; expected a JSON object');
    }
    this.parseValue();
    this.skipWhitespace();
    if (this.position < this.text.length) {
      this.fail(`unexpected ${this.describeHere()} after the end of the JSON value`);
    }
  }

  private parseValue(): void {
    this.skipWhitespace();
    const char = this.text[this.position];
    switch (char) {
      case '{':
        return this.parseObject();
      case '[':
        return this.parseArray();
      case '"':
        return this.parseString();
      case 't':
        return this.parseLiteral('true');
      case 'f':
        return this.parseLiteral('false');
      case 'n':
        return this.parseLiteral('null');
      default:
        if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) {
          return this.parseNumber();
        }
        return this.fail(`expected a value but found ${this.describeHere()}`);
    }
  }

  private parseObject(): void {
    this.position++;
    this.skipWhitespace();
    if (this.text[this.position] === '}') {
      this.position++;
      return;
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
      const keyStart = this.position;
      this.parseString();
      const key = this.text.slice(keyStart + 1, this.position - 1);
      this.skipWhitespace();
      this.expect(':', `expected ":" after "${key}"`);
      this.parseValue();
      this.skipWhitespace();
      const next = this.text[this.position];
      if (next === ',') {
        this.position++;
        continue;
      }
      if (next === '}') {
        this.position++;
        return;
      }
      this.fail(`expected "," or "}" after the value of "${key}" but found ${this.describeHere()}`);
    }
  }

  private parseArray(): void {
    this.position++;
    this.skipWhitespace();
    if (this.text[this.position] === ']') {
      this.position++;
      return;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.position] === ']') {
        this.fail('trailing comma before "]"');
      }
      this.parseValue();
      this.skipWhitespace();
      const next = this.text[this.position];
      if (next === ',') {
        this.position++;
        continue;
      }
      if (next === ']') {
        this.position++;
        return;
      }
      this.fail(`expected "," or "]" in the list but found ${this.describeHere()}`);
    }
  }

  private parseString(): void {
    const start = this.position;
    this.position++;
    for (;;) {
      const char = this.text[this.position];
      if (char === undefined) {
        throw new JsonSyntaxError('unterminated string', this.lines.at(start));
      }
      if (char === '"') {
        this.position++;
        return;
      }
      if (char === '\\') {
        this.parseEscape();
        continue;
      }
      if (char < ' ') {
        this.fail(char === '\n' ? 'line break inside a string (write \\n)' : 'control character inside a string');
      }
      this.position++;
    }
  }

  private parseEscape(): void {
    const escaped = this.text[this.position + 1];
    if (escaped !== undefined && '"\\/bfnrt'.includes(escaped)) {
      this.position += 2;
      return;
    }
    if (escaped === 'u' && /^[0-9a-fA-F]{4}$/.test(this.text.slice(this.position + 2, this.position + 6))) {
      this.position += 6;
      return;
    }
    this.fail('invalid escape sequence in a string');
  }

  private parseNumber(): void {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(this.position, this.position + 400));
    if (!match) {
      this.fail('invalid number');
    }
    this.position += match[0].length;
  }

  private parseLiteral(word: string): void {
    if (!this.text.startsWith(word, this.position)) {
      this.fail(`expected a value but found ${this.describeHere()}`);
    }
    this.position += word.length;
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
    throw new JsonSyntaxError(reason, this.lines.at(this.position));
  }
}
