import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  addContainsPair,
  CONTAINS_TARGETS,
  containsNodeType,
  containsProblem,
  containsTargetFor,
  depluralize,
  removeContainsPair,
} from '../../../../src/notebooks/lists/notebookContains';

describe('notebook contains filter', () => {
  test('PostHog\'s targets: depluralised ("ies" to "y", one final s dropped), prefixed ph-, hyphens kept', () => {
    assert.equal(containsNodeType('recordings'), 'ph-recording');
    assert.equal(containsNodeType('feature-flag'), 'ph-feature-flag');
    assert.equal(containsNodeType('feature_flag'), 'ph-feature_flag');
    assert.equal(containsNodeType('replay-timestamps'), 'ph-replay-timestamp');
    assert.equal(depluralize('person-properties'), 'person-property');
    assert.equal(depluralize('issues'), 'issue');
    assert.equal(containsTargetFor('ph-issues'), 'issuess', 'one more s, which PostHog drops');
    assert.equal(containsNodeType(containsTargetFor('ph-person-properties')!), 'ph-person-properties');
    assert.equal(containsTargetFor('person-feed'), 'person-feed');
    assert.equal(containsTargetFor('ph-Person'), undefined);
    for (const target of CONTAINS_TARGETS) {
      assert.equal(containsNodeType(target), `ph-${target}`, `${target} is found as typed`);
      assert.equal(containsProblem(`${target}:true`)?.kind, target === 'insight' ? 'legacyInsight' : undefined, target);
    }
  });

  test('adding a pair: presence replaces the target\'s other pairs, ids add up and replace its presence', () => {
    assert.equal(addContainsPair(undefined, { target: 'recording', match: 'true' }), 'recording:true');
    assert.equal(addContainsPair('recordings:true cohort:3', { target: 'recording', match: 'false' }), 'cohort:3 recording:false');
    assert.equal(addContainsPair('recording:true', { target: 'recording', match: 'abc' }), 'recording:abc');
    assert.equal(addContainsPair('recording:abc', { target: 'recording', match: 'def' }), 'recording:abc recording:def');
    assert.equal(addContainsPair('recording:abc,recording:def', { target: 'recording', match: 'abc' }), 'recording:def recording:abc');
    assert.equal(addContainsPair('recording:abc feature-flag:7', { target: 'recording' }), 'feature-flag:7 recording');
    assert.equal(removeContainsPair('recording:true, cohort:3 person', 1), 'recording:true person');
  });

  test('contains problems: errors for what PostHog would misread, warnings for what may find nothing', () => {
    assert.equal(containsProblem('recording:true, query:abc123 feature-flag:7 cohort'), undefined);
    const check = (value: string) => {
      const problem = containsProblem(value);
      return problem && [problem.kind, problem.severity, problem.pair, problem.suggestion];
    };
    assert.deepEqual(check('feature_flag:true'), ['spelling', 'error', 'feature_flag:true', 'feature-flag:true']);
    assert.deepEqual(check('Recording'), ['spelling', 'error', 'Recording', 'recording']);
    assert.deepEqual(check('recording:true bad:pair:x'), ['secondColon', 'error', 'bad:pair:x', undefined]);
    assert.deepEqual(check(':true'), ['noTarget', 'error', ':true', undefined]);
    assert.deepEqual(check('recording:'), ['emptyMatch', 'error', 'recording:', 'recording:true']);
    assert.deepEqual(check('rec$ording:true'), ['notNodeType', 'error', 'rec$ording:true', undefined]);
    assert.deepEqual(check('recording:True'), ['matchCase', 'warning', 'recording:True', 'recording:true']);
    assert.deepEqual(check('insights:false'), ['legacyInsight', 'warning', 'insights:false', undefined]);
    assert.deepEqual(check('issues:true'), ['plural', 'warning', 'issues:true', 'issuess:true']);
    assert.deepEqual(check('issuess:true'), undefined);
    assert.deepEqual(check('rec-ording:true'), ['unknownNodeType', 'warning', 'rec-ording:true', undefined]);
    assert.equal(containsProblem('insight feature_flag')?.kind, 'spelling', 'an error comes before a warning');
  });
});
