import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';

const ROOT = path.join(__dirname, '..', '..', '..', '..');
const grammar = JSON.parse(readFileSync(path.join(ROOT, 'syntaxes', 'hogql.tmLanguage.json'), 'utf8'));
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

interface Rule {
  match?: string;
  begin?: string;
  end?: string;
  name?: string;
  patterns?: Rule[];
  include?: string;
  captures?: Record<string, { name: string }>;
}

/** Every rule of the grammar with the rule that holds it (the repository's and the nested ones). */
function rules(): Rule[] {
  const all: Rule[] = [];
  const visit = (rule: Rule) => {
    all.push(rule);
    rule.patterns?.forEach(visit);
  };
  grammar.patterns.forEach(visit);
  Object.values(grammar.repository as Record<string, Rule>).forEach(visit);
  return all;
}

/** The rules that apply outside strings, comments and placeholders, in the grammar's order. */
function topLevelRules(): Rule[] {
  return (grammar.patterns as Rule[]).flatMap((rule) => (grammar.repository[rule.include!.slice(1)] as Rule).patterns ?? []);
}

/** The first rule whose `match` (case-insensitive when it says so) matches all of `text`, by JavaScript's regexps. */
function scopeOf(text: string): string | undefined {
  for (const rule of topLevelRules()) {
    if (!rule.match) continue;
    const flags = rule.match.startsWith('(?i)') ? 'i' : '';
    const match = new RegExp(`^(?:${rule.match.replace(/^\(\?i\)/, '')})$`, flags).exec(text);
    if (match) return rule.name ?? rule.captures?.['0']?.name ?? Object.values(rule.captures ?? {}).map((capture) => capture.name).join(' ');
  }
  return undefined;
}

describe('the hogql grammar', () => {
  test('is the one package.json contributes, for the hogql language, and every include names a rule', () => {
    assert.deepEqual(manifest.contributes.grammars, [{ language: 'hogql', scopeName: grammar.scopeName, path: './syntaxes/hogql.tmLanguage.json' }]);
    for (const rule of rules()) {
      if (rule.include) assert.ok(grammar.repository[rule.include.slice(1)], `${rule.include} is defined`);
    }
  });

  test('every pattern is a valid regular expression without a lookbehind (TextMate allows fixed-length ones only)', () => {
    for (const rule of rules()) {
      for (const source of [rule.match, rule.begin, rule.end].filter((value) => value !== undefined)) {
        assert.doesNotThrow(() => new RegExp(source.replace(/^\(\?i\)/, '')), source);
        assert.ok(!source.includes('(?<'), `no lookbehind: ${source}`);
      }
    }
  });

  test('scopes keywords, functions, numbers, comments and property access', () => {
    assert.equal(scopeOf('SELECT'), 'keyword.other.hogql');
    assert.equal(scopeOf('from'), 'keyword.other.hogql');
    const functionRule = grammar.repository.functions.patterns[0] as Rule;
    assert.equal(new RegExp(functionRule.match!).exec('countIf (x)')?.[0], 'countIf');
    assert.equal(new RegExp(functionRule.match!).exec('countIf'), null, 'a name without a call is not a function');
    assert.equal(scopeOf('42.5'), 'constant.numeric.hogql');
    assert.equal(scopeOf('-- a comment'), 'comment.line.double-dash.hogql');
    assert.match(scopeOf('properties.$browser') ?? '', /variable\.other\.property\.hogql/);
    assert.match(scopeOf('person.properties.email') ?? '', /variable\.language\.hogql/);
  });
});
