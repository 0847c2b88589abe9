// A parser for the subset of HogQL the local API runs (see README "Query API"): SELECT with expressions and
// aliases, FROM one table, WHERE, GROUP BY, HAVING, ORDER BY, LIMIT/OFFSET. Every node keeps its character
// offsets so errors can point at the text (HogQLMetadata).

/** PostHog's HogQL error classes, with the offsets PostHog keeps inside the server. */
export class HogQLError extends Error {
  constructor(
    message: string,
    readonly code: 'hogql_syntax_error' | 'hogql_query_error' | 'hogql_error',
    readonly start?: number,
    readonly end?: number,
  ) {
    super(message);
  }
}

export const syntaxError = (message: string, start: number, end: number): HogQLError => new HogQLError(message, 'hogql_syntax_error', start, end);
export const queryError = (message: string, start?: number, end?: number): HogQLError => new HogQLError(message, 'hogql_query_error', start, end);

interface Span {
  start: number;
  end: number;
}

export type Expr = Span &
  (
    | { type: 'constant'; value: string | number | boolean | null }
    | { type: 'field'; chain: string[] }
    | { type: 'star' }
    | { type: 'call'; name: string; args: Expr[]; distinct: boolean }
    | { type: 'binary'; op: string; left: Expr; right: Expr }
    | { type: 'not'; expr: Expr }
    | { type: 'negate'; expr: Expr }
    | { type: 'isNull'; expr: Expr; negated: boolean }
    | { type: 'tuple'; items: Expr[] }
    | { type: 'interval'; amount: Expr; unit: string }
  );

export interface SelectColumn {
  expr: Expr;
  alias?: string;
}

export interface OrderTerm {
  expr: Expr;
  descending: boolean;
}

export interface SelectQuery extends Span {
  distinct: boolean;
  select: SelectColumn[];
  from?: { table: string; alias?: string } & Span;
  where?: Expr;
  groupBy: Expr[];
  having?: Expr;
  orderBy: OrderTerm[];
  limit?: number;
  offset?: number;
}

type TokenKind = 'word' | 'quoted' | 'string' | 'number' | 'op' | 'end';

interface Token extends Span {
  kind: TokenKind;
  text: string;
}

const OPERATORS = ['<=', '>=', '!=', '<>', '==', '||', '=', '<', '>', '+', '-', '*', '/', '%', '(', ')', ',', '.', '[', ']'];

/** Splits HogQL text into tokens; `--` comments and whitespace are skipped. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (/\s/.test(char)) {
      i++;
      continue;
    }
    if (text.startsWith('--', i)) {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    const start = i;
    if (/[A-Za-z_$]/.test(char)) {
      while (i < text.length && /[A-Za-z0-9_$]/.test(text[i]!)) i++;
      tokens.push({ kind: 'word', text: text.slice(start, i), start, end: i });
    } else if (/[0-9]/.test(char)) {
      while (i < text.length && /[0-9.]/.test(text[i]!)) i++;
      if (/[eE]/.test(text[i] ?? '') && /[-+0-9]/.test(text[i + 1] ?? '')) for (i += 2; /[0-9]/.test(text[i] ?? ''); ) i++;
      tokens.push({ kind: 'number', text: text.slice(start, i), start, end: i });
    } else if (char === "'" || char === '"' || char === '`') {
      const value = readQuoted(text, i);
      i = value.end;
      tokens.push({ kind: char === "'" ? 'string' : 'quoted', text: value.text, start, end: i });
    } else {
      const op = OPERATORS.find((candidate) => text.startsWith(candidate, i));
      if (!op) throw syntaxError(`Unexpected character "${char}"`, i, i + 1);
      i += op.length;
      tokens.push({ kind: 'op', text: op, start, end: i });
    }
  }
  tokens.push({ kind: 'end', text: '', start: text.length, end: text.length });
  return tokens;
}

function readQuoted(text: string, from: number): { text: string; end: number } {
  const quote = text[from]!;
  let out = '';
  let i = from + 1;
  while (i < text.length) {
    const char = text[i]!;
    if (char === '\\' && i + 1 < text.length) {
      const next = text[i + 1]!;
      out += next === 'n' ? '\n' : next === 't' ? '\t' : next;
      i += 2;
    } else if (char === quote && text[i + 1] === quote) {
      out += quote;
      i += 2;
    } else if (char === quote) {
      return { text: out, end: i + 1 };
    } else {
      out += char;
      i++;
    }
  }
  throw syntaxError('Unterminated quoted text', from, text.length);
}

const CLAUSE_WORDS = new Set(['select', 'from', 'where', 'group', 'having', 'order', 'limit', 'offset', 'as', 'and', 'or', 'not', 'by', 'asc', 'desc', 'like', 'ilike', 'in', 'is', 'null', 'distinct', 'interval', 'union', 'join', 'on', 'between']);
const INTERVAL_UNITS = new Set(['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year']);

/** Parses one SELECT statement. */
export function parseSelect(text: string): SelectQuery {
  const parser = new Parser(text);
  const query = parser.select();
  parser.expectEnd();
  return query;
}

/** Parses one expression (HogQLMetadata's "hogQLExpr", EventsQuery's select and where entries). */
export function parseExpr(text: string): Expr {
  const parser = new Parser(text);
  const expr = parser.expr();
  parser.expectEnd();
  return expr;
}

/** Parses one ORDER BY term ("timestamp DESC"). */
export function parseOrderTerm(text: string): OrderTerm {
  const parser = new Parser(text);
  const term = parser.orderTerm();
  parser.expectEnd();
  return term;
}

class Parser {
  private readonly tokens: Token[];
  private at = 0;

  constructor(private readonly text: string) {
    this.tokens = tokenize(text);
  }

  private get token(): Token {
    return this.tokens[this.at]!;
  }

  private isWord(word: string, offset = 0): boolean {
    const token = this.tokens[this.at + offset];
    return token?.kind === 'word' && token.text.toLowerCase() === word;
  }

  private isOp(op: string): boolean {
    return this.token.kind === 'op' && this.token.text === op;
  }

  private acceptWord(word: string): boolean {
    if (!this.isWord(word)) return false;
    this.at++;
    return true;
  }

  private acceptOp(op: string): boolean {
    if (!this.isOp(op)) return false;
    this.at++;
    return true;
  }

  private expectWord(word: string): void {
    if (!this.acceptWord(word)) throw this.unexpected(`expecting ${word.toUpperCase()}`);
  }

  private expectOp(op: string): void {
    if (!this.acceptOp(op)) throw this.unexpected(`expecting '${op}'`);
  }

  private unexpected(expecting: string): HogQLError {
    const token = this.token;
    const found = token.kind === 'end' ? '<EOF>' : `'${this.text.slice(token.start, token.end)}'`;
    return syntaxError(`mismatched input ${found} ${expecting}`, token.start, Math.max(token.end, token.start + (token.kind === 'end' ? 0 : 1)));
  }

  expectEnd(): void {
    if (this.token.kind !== 'end') throw this.unexpected('expecting <EOF>');
  }

  select(): SelectQuery {
    const start = this.token.start;
    this.expectWord('select');
    const distinct = this.acceptWord('distinct');
    const select = [this.column()];
    while (this.acceptOp(',')) select.push(this.column());
    const query: SelectQuery = { start, end: 0, distinct, select, groupBy: [], orderBy: [] };
    if (this.acceptWord('from')) {
      const token = this.token;
      if (token.kind !== 'word' && token.kind !== 'quoted') throw this.unexpected('expecting a table name');
      if (this.isOp('(')) throw syntaxError('Subqueries are not supported by the local API', token.start, token.end);
      this.at++;
      query.from = { table: token.text, start: token.start, end: token.end };
      if (this.acceptWord('as')) query.from.alias = this.identifier();
      else if (this.token.kind === 'word' && !CLAUSE_WORDS.has(this.token.text.toLowerCase())) query.from.alias = this.identifier();
      if (this.isWord('join') || this.isWord('left') || this.isWord('inner')) throw syntaxError('JOIN is not supported by the local API', this.token.start, this.token.end);
    }
    if (this.acceptWord('where')) query.where = this.expr();
    if (this.acceptWord('group')) {
      this.expectWord('by');
      query.groupBy.push(this.expr());
      while (this.acceptOp(',')) query.groupBy.push(this.expr());
    }
    if (this.acceptWord('having')) query.having = this.expr();
    if (this.acceptWord('order')) {
      this.expectWord('by');
      query.orderBy.push(this.orderTerm());
      while (this.acceptOp(',')) query.orderBy.push(this.orderTerm());
    }
    if (this.acceptWord('limit')) {
      query.limit = this.integer();
      if (this.acceptOp(',')) {
        query.offset = query.limit;
        query.limit = this.integer();
      }
    }
    if (this.acceptWord('offset')) query.offset = this.integer();
    query.end = this.tokens[this.at - 1]!.end;
    return query;
  }

  private column(): SelectColumn {
    const expr = this.expr();
    if (this.acceptWord('as')) return { expr, alias: this.identifier() };
    if (this.token.kind === 'quoted' || (this.token.kind === 'word' && !CLAUSE_WORDS.has(this.token.text.toLowerCase()))) return { expr, alias: this.identifier() };
    return { expr };
  }

  orderTerm(): OrderTerm {
    const expr = this.expr();
    if (this.acceptWord('desc') || this.acceptWord('descending')) return { expr, descending: true };
    if (!this.acceptWord('asc')) this.acceptWord('ascending');
    return { expr, descending: false };
  }

  private identifier(): string {
    const token = this.token;
    if (token.kind !== 'word' && token.kind !== 'quoted') throw this.unexpected('expecting an identifier');
    this.at++;
    return token.text;
  }

  private integer(): number {
    const token = this.token;
    if (token.kind !== 'number' || !/^\d+$/.test(token.text)) throw this.unexpected('expecting a whole number');
    this.at++;
    return Number(token.text);
  }

  expr(): Expr {
    return this.or();
  }

  private or(): Expr {
    let left = this.and();
    while (this.acceptWord('or')) left = binary('or', left, this.and());
    return left;
  }

  private and(): Expr {
    let left = this.not();
    while (this.acceptWord('and')) left = binary('and', left, this.not());
    return left;
  }

  private not(): Expr {
    const start = this.token.start;
    if (this.acceptWord('not')) {
      const expr = this.not();
      return { type: 'not', expr, start, end: expr.end };
    }
    return this.comparison();
  }

  private comparison(): Expr {
    const left = this.additive();
    if (this.acceptWord('is')) {
      const negated = this.acceptWord('not');
      const nullToken = this.token;
      this.expectWord('null');
      return { type: 'isNull', expr: left, negated, start: left.start, end: nullToken.end };
    }
    const negated = this.isWord('not') && (this.isWord('like', 1) || this.isWord('ilike', 1) || this.isWord('in', 1) || this.isWord('between', 1));
    if (negated) this.at++;
    for (const word of ['like', 'ilike', 'in']) {
      if (this.acceptWord(word)) {
        const right = this.additive();
        return binary(negated ? `not ${word}` : word, left, right);
      }
    }
    if (this.acceptWord('between')) {
      const low = this.additive();
      this.expectWord('and');
      const high = this.additive();
      const inside = binary('and', binary('>=', left, low), binary('<=', left, high));
      return negated ? { type: 'not', expr: inside, start: left.start, end: high.end } : inside;
    }
    for (const op of ['=', '==', '!=', '<>', '<=', '>=', '<', '>']) {
      if (this.acceptOp(op)) return binary(op === '==' ? '=' : op === '<>' ? '!=' : op, left, this.additive());
    }
    return left;
  }

  private additive(): Expr {
    let left = this.multiplicative();
    for (;;) {
      const op = ['+', '-', '||'].find((candidate) => this.isOp(candidate));
      if (!op) return left;
      this.at++;
      left = binary(op, left, this.multiplicative());
    }
  }

  private multiplicative(): Expr {
    let left = this.unary();
    for (;;) {
      const op = ['*', '/', '%'].find((candidate) => this.isOp(candidate));
      if (!op) return left;
      this.at++;
      left = binary(op, left, this.unary());
    }
  }

  private unary(): Expr {
    const start = this.token.start;
    if (this.acceptOp('-')) {
      const expr = this.unary();
      return { type: 'negate', expr, start, end: expr.end };
    }
    return this.primary();
  }

  private primary(): Expr {
    const token = this.token;
    if (token.kind === 'number') {
      this.at++;
      return { type: 'constant', value: Number(token.text), start: token.start, end: token.end };
    }
    if (token.kind === 'string') {
      this.at++;
      return { type: 'constant', value: token.text, start: token.start, end: token.end };
    }
    if (this.acceptOp('*')) return { type: 'star', start: token.start, end: token.end };
    if (this.acceptOp('(')) return this.parenthesised(token.start);
    if (this.acceptOp('[')) {
      const items = this.isOp(']') ? [] : this.list();
      const close = this.token;
      this.expectOp(']');
      return { type: 'tuple', items, start: token.start, end: close.end };
    }
    if (token.kind === 'word' || token.kind === 'quoted') {
      const lower = token.text.toLowerCase();
      if (token.kind === 'word') {
        if (lower === 'true' || lower === 'false') {
          this.at++;
          return { type: 'constant', value: lower === 'true', start: token.start, end: token.end };
        }
        if (lower === 'null') {
          this.at++;
          return { type: 'constant', value: null, start: token.start, end: token.end };
        }
        if (lower === 'interval') return this.interval();
        if (CLAUSE_WORDS.has(lower) && lower !== 'distinct') throw this.unexpected('expecting an expression');
      }
      this.at++;
      if (token.kind === 'word' && this.isOp('(')) return this.call(token);
      return this.fieldChain(token);
    }
    throw this.unexpected('expecting an expression');
  }

  private parenthesised(start: number): Expr {
    if (this.isWord('select')) throw syntaxError('Subqueries are not supported by the local API', this.token.start, this.token.end);
    const items = this.list();
    const close = this.token;
    this.expectOp(')');
    if (items.length === 1) return { ...items[0]!, start, end: close.end };
    return { type: 'tuple', items, start, end: close.end };
  }

  private list(): Expr[] {
    const items = [this.expr()];
    while (this.acceptOp(',')) items.push(this.expr());
    return items;
  }

  private interval(): Expr {
    const start = this.token.start;
    this.at++;
    const amount = this.unary();
    const unitToken = this.token;
    const unit = unitToken.kind === 'word' ? unitToken.text.toLowerCase().replace(/s$/, '') : '';
    if (!INTERVAL_UNITS.has(unit)) throw this.unexpected('expecting an interval unit');
    this.at++;
    return { type: 'interval', amount, unit, start, end: unitToken.end };
  }

  private call(name: Token): Expr {
    this.expectOp('(');
    const distinct = this.acceptWord('distinct');
    const args = this.isOp(')') ? [] : this.list();
    const close = this.token;
    this.expectOp(')');
    return { type: 'call', name: name.text, args, distinct, start: name.start, end: close.end };
  }

  private fieldChain(first: Token): Expr {
    const chain = [first.text];
    let end = first.end;
    while (this.isOp('.')) {
      this.at++;
      const part = this.token;
      if (part.kind !== 'word' && part.kind !== 'quoted' && part.kind !== 'number') throw this.unexpected('expecting a field name');
      this.at++;
      chain.push(part.text);
      end = part.end;
    }
    return { type: 'field', chain, start: first.start, end };
  }
}

function binary(op: string, left: Expr, right: Expr): Expr {
  return { type: 'binary', op, left, right, start: left.start, end: right.end };
}
