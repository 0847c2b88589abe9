// A small HogQL subset for the events list's `select` and `where`: fields (event, distinct_id, timestamp,
// uuid, person_id, elements_chain, properties.x, properties['x'], person.properties.x, person, *),
// literals, comparisons, AND/OR/NOT, LIKE/ILIKE, IN (...), IS [NOT] NULL, + - * /, INTERVAL n unit,
// scalar functions (lower, upper, length, concat, toString, toInt, toFloat, coalesce, ifNull, round,
// now, today, toDateTime, toDate) and aggregates (count, uniq, min, max, sum, avg). Anything else is
// refused with a 400, as the real server refuses what HogQL cannot resolve.
import type { Json } from './model';
import { validation } from './errors';
import { MICROS_PER_DAY, MICROS_PER_HOUR, MICROS_PER_SECOND } from './time';

export type Expr =
  | { k: 'lit'; v: Json }
  | { k: 'field'; path: string[] }
  | { k: 'star' }
  | { k: 'call'; name: string; args: Expr[]; distinct: boolean }
  | { k: 'bin'; op: string; l: Expr; r: Expr }
  | { k: 'not'; e: Expr }
  | { k: 'neg'; e: Expr }
  | { k: 'tuple'; items: Expr[] }
  | { k: 'interval'; n: Expr; unit: string }
  | { k: 'isnull'; e: Expr; negate: boolean };

export const AGGREGATES = new Set(['count', 'uniq', 'min', 'max', 'sum', 'avg']);
const SCALARS = new Set(['lower', 'upper', 'length', 'concat', 'tostring', 'toint', 'tofloat', 'coalesce', 'ifnull', 'round', 'now', 'today', 'todatetime', 'todate']);
const ROOT_FIELDS = new Set(['event', 'distinct_id', 'timestamp', 'created_at', 'uuid', 'person_id', 'elements_chain', 'properties', 'person']);
export const UNITS: Record<string, number> = { second: MICROS_PER_SECOND, minute: 60 * MICROS_PER_SECOND, hour: MICROS_PER_HOUR, day: MICROS_PER_DAY, week: 7 * MICROS_PER_DAY, month: 30 * MICROS_PER_DAY, year: 365 * MICROS_PER_DAY };

type Token = { t: 'num' | 'str' | 'id' | 'op'; v: string };

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) { i++; continue; }
    if (c === "'") {
      let value = '';
      i++;
      while (i < src.length && !(src[i] === "'" && src[i + 1] !== "'")) {
        if (src[i] === '\\' || (src[i] === "'" && src[i + 1] === "'")) i++;
        value += src[i++];
      }
      if (i >= src.length) throw syntax(src, 'unterminated string');
      i++;
      tokens.push({ t: 'str', v: value });
      continue;
    }
    if (c === '"' || c === '`') {
      const end = src.indexOf(c, i + 1);
      if (end < 0) throw syntax(src, 'unterminated identifier');
      tokens.push({ t: 'id', v: src.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    const num = /^\d+(\.\d+)?/.exec(src.slice(i));
    if (num) { tokens.push({ t: 'num', v: num[0] }); i += num[0].length; continue; }
    const id = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(src.slice(i));
    if (id) { tokens.push({ t: 'id', v: id[0] }); i += id[0].length; continue; }
    const op = /^(==|!=|<>|<=|>=|[=<>()\[\],.*+\-/])/.exec(src.slice(i));
    if (!op) throw syntax(src, `unexpected character "${c}"`);
    tokens.push({ t: 'op', v: op[0] });
    i += op[0].length;
  }
  return tokens;
}

const syntax = (src: string, why: string): Error => validation(`Syntax error in HogQL expression "${src}": ${why}`, null, 'invalid');

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[], private readonly src: string) {}

  parse(): Expr {
    const expr = this.or();
    if (this.pos < this.tokens.length) throw syntax(this.src, `unexpected "${this.tokens[this.pos]!.v}"`);
    return expr;
  }

  private peek(): Token | undefined { return this.tokens[this.pos]; }
  private isKw(word: string): boolean { const t = this.peek(); return t?.t === 'id' && t.v.toLowerCase() === word; }
  private isOp(op: string): boolean { const t = this.peek(); return t?.t === 'op' && t.v === op; }
  private expectOp(op: string): void { if (!this.isOp(op)) throw syntax(this.src, `expected "${op}"`); this.pos++; }

  private or(): Expr { let l = this.and(); while (this.isKw('or')) { this.pos++; l = { k: 'bin', op: 'or', l, r: this.and() }; } return l; }
  private and(): Expr { let l = this.not(); while (this.isKw('and')) { this.pos++; l = { k: 'bin', op: 'and', l, r: this.not() }; } return l; }
  private not(): Expr { if (this.isKw('not')) { this.pos++; return { k: 'not', e: this.not() }; } return this.cmp(); }

  private cmp(): Expr {
    const l = this.add();
    const t = this.peek();
    if (t?.t === 'op' && ['=', '==', '!=', '<>', '<', '>', '<=', '>='].includes(t.v)) {
      this.pos++;
      const op = t.v === '==' ? '=' : t.v === '<>' ? '!=' : t.v;
      return { k: 'bin', op, l, r: this.add() };
    }
    if (this.isKw('is')) {
      this.pos++;
      const negate = this.isKw('not');
      if (negate) this.pos++;
      if (!this.isKw('null')) throw syntax(this.src, 'expected NULL');
      this.pos++;
      return { k: 'isnull', e: l, negate };
    }
    let negate = false;
    if (this.isKw('not')) { negate = true; this.pos++; }
    for (const word of ['like', 'ilike', 'in']) {
      if (this.isKw(word)) {
        this.pos++;
        const e: Expr = { k: 'bin', op: word, l, r: this.add() };
        return negate ? { k: 'not', e } : e;
      }
    }
    if (negate) throw syntax(this.src, 'expected LIKE, ILIKE or IN after NOT');
    return l;
  }

  private add(): Expr {
    let l = this.mul();
    while (this.isOp('+') || this.isOp('-')) { const op = this.tokens[this.pos++]!.v; l = { k: 'bin', op, l, r: this.mul() }; }
    return l;
  }

  private mul(): Expr {
    let l = this.unary();
    while (this.isOp('*') || this.isOp('/')) { const op = this.tokens[this.pos++]!.v; l = { k: 'bin', op, l, r: this.unary() }; }
    return l;
  }

  private unary(): Expr { if (this.isOp('-')) { this.pos++; return { k: 'neg', e: this.unary() }; } return this.postfix(); }

  private postfix(): Expr {
    const base = this.primary();
    if (base.k !== 'field') return base;
    for (;;) {
      if (this.isOp('.')) {
        this.pos++;
        const t = this.peek();
        if (!t || (t.t !== 'id' && t.t !== 'num')) throw syntax(this.src, 'expected a name after "."');
        this.pos++;
        base.path.push(t.v);
      } else if (this.isOp('[')) {
        this.pos++;
        const t = this.peek();
        if (!t || (t.t !== 'str' && t.t !== 'num')) throw syntax(this.src, 'expected a string key in [...]');
        this.pos++;
        this.expectOp(']');
        base.path.push(t.v);
      } else return base;
    }
  }

  private primary(): Expr {
    const t = this.peek();
    if (!t) throw syntax(this.src, 'unexpected end');
    this.pos++;
    if (t.t === 'num') return { k: 'lit', v: Number(t.v) };
    if (t.t === 'str') return { k: 'lit', v: t.v };
    if (t.t === 'op' && t.v === '*') return { k: 'star' };
    if (t.t === 'op' && t.v === '(') {
      const items = [this.or()];
      while (this.isOp(',')) { this.pos++; items.push(this.or()); }
      this.expectOp(')');
      return items.length === 1 ? items[0]! : { k: 'tuple', items };
    }
    if (t.t !== 'id') throw syntax(this.src, `unexpected "${t.v}"`);
    const word = t.v.toLowerCase();
    if (word === 'true' || word === 'false') return { k: 'lit', v: word === 'true' };
    if (word === 'null') return { k: 'lit', v: null };
    if (word === 'interval') {
      const n = this.unary();
      const unit = this.peek();
      if (unit?.t !== 'id' || !(unit.v.toLowerCase().replace(/s$/, '') in UNITS)) throw syntax(this.src, 'expected an interval unit');
      this.pos++;
      return { k: 'interval', n, unit: unit.v.toLowerCase().replace(/s$/, '') };
    }
    if (this.isOp('(')) {
      this.pos++;
      const args: Expr[] = [];
      const distinct = this.isKw('distinct');
      if (distinct) this.pos++;
      while (!this.isOp(')')) {
        args.push(this.isOp('*') ? (this.pos++, { k: 'star' } as Expr) : this.or());
        if (!this.isOp(',')) break;
        this.pos++;
      }
      this.expectOp(')');
      return { k: 'call', name: t.v, args, distinct };
    }
    return { k: 'field', path: [t.v] };
  }
}

/** Parses one expression; an optional trailing "AS alias" is dropped. Unknown fields/functions are refused. */
export function parseHogQL(src: string): Expr {
  const tokens = tokenize(src);
  const asAt = tokens.findIndex((t, i) => t.t === 'id' && t.v.toLowerCase() === 'as' && i === tokens.length - 2);
  const expr = new Parser(asAt >= 0 ? tokens.slice(0, asAt) : tokens, src).parse();
  check(expr);
  return expr;
}

function check(e: Expr): void {
  switch (e.k) {
    case 'field':
      if (!ROOT_FIELDS.has(e.path[0]!)) throw validation(`Unable to resolve field: ${e.path[0]}`, null, 'invalid');
      if (e.path[0] === 'person' && e.path.length > 1 && !['properties', 'id', 'created_at'].includes(e.path[1]!)) {
        throw validation(`Unable to resolve field: ${e.path.join('.')}`, null, 'invalid');
      }
      return;
    case 'call': {
      const name = e.name.toLowerCase();
      if (!AGGREGATES.has(name) && !SCALARS.has(name)) throw validation(`Unsupported function call "${e.name}(...)"`, null, 'invalid');
      e.args.forEach(check);
      return;
    }
    case 'bin': check(e.l); check(e.r); return;
    case 'not': case 'neg': case 'isnull': check(e.e); return;
    case 'tuple': e.items.forEach(check); return;
    case 'interval': check(e.n); return;
    default: return;
  }
}

export function isAggregate(e: Expr): boolean {
  switch (e.k) {
    case 'call': return AGGREGATES.has(e.name.toLowerCase()) || e.args.some(isAggregate);
    case 'bin': return isAggregate(e.l) || isAggregate(e.r);
    case 'not': case 'neg': case 'isnull': return isAggregate(e.e);
    case 'tuple': return e.items.some(isAggregate);
    default: return false;
  }
}
