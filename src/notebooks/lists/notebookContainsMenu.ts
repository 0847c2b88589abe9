import * as vscode from 'vscode';
import type { WindowApi } from '../../workbench/window';
import {
  addContainsPair,
  CONTAINS_TARGETS,
  type ContainsProblem,
  containsProblem,
  type ContainsTarget,
  containsTargetFor,
  removeContainsPair,
  splitContains,
} from './notebookContains';

type ContainsItem = vscode.QuickPickItem &
  (
    | { readonly action: 'add'; readonly target: ContainsTarget }
    | { readonly action: 'remove'; readonly index: number }
    | { readonly action: 'other' | 'text' | 'done' }
  );

/**
 * The `contains` pairs as a list: add one of PostHog's targets (each explained), any other node type, or
 * edit the text; remove a pair. Done or Escape returns the value to the filter menu.
 */
export async function askContains(window: WindowApi, initial: string | undefined): Promise<string | undefined> {
  let contains = initial;
  for (;;) {
    const picked = await window.showQuickPick(containsMenu(contains), {
      title: vscode.l10n.t('Notebooks Containing'),
      placeHolder: vscode.l10n.t(
        "PostHog looks at a notebook's top-level nodes. A Markdown notebook is one node (markdown-notebook): the tags in its Markdown are not seen.",
      ),
      matchOnDescription: true,
      ignoreFocusOut: true,
    });
    if (!picked || picked.action === 'done') {
      return contains;
    }
    contains = (await changeContains(window, contains, picked)) ?? contains;
  }
}

/** The value after the picked change; undefined when the user gave up on it. */
async function changeContains(window: WindowApi, contains: string | undefined, picked: ContainsItem): Promise<string | undefined> {
  switch (picked.action) {
    case 'remove':
      return removeContainsPair(contains, picked.index);
    case 'add':
      return askMatch(window, contains, picked.target, targetTexts(picked.target));
    case 'other': {
      const target = await askNodeType(window);
      return target === undefined ? undefined : askMatch(window, contains, target, { name: target, id: vscode.l10n.t("the node's id") });
    }
    case 'text':
      return editAsText(window, contains);
    default:
      return undefined;
  }
}

async function editAsText(window: WindowApi, contains: string | undefined): Promise<string | undefined> {
  const value = await window.showInputBox({
    title: vscode.l10n.t('Notebooks Containing'),
    prompt: vscode.l10n.t(
      'Pairs of target:match separated by spaces or commas. Targets are node types without ph- (recording, feature-flag, query, …); match: true (has one), false (has none) or an id.',
    ),
    placeHolder: 'recording:true feature-flag:false',
    value: contains ?? '',
    ignoreFocusOut: true,
    validateInput: (input) => (input.trim() ? containsMessage(containsProblem(input.trim())) : undefined),
  });
  return value?.trim();
}

function containsMenu(contains: string | undefined): ContainsItem[] {
  const pairs = splitContains(contains ?? '');
  const current: ContainsItem[] = pairs.map((pair, index) => ({
    action: 'remove',
    index,
    label: `$(close) ${pair}`,
    description: vscode.l10n.t('remove'),
  }));
  const targets: ContainsItem[] = CONTAINS_TARGETS.map((target) => {
    const texts = targetTexts(target);
    return { action: 'add', target, label: `$(${texts.icon}) ${texts.name}`, description: target, detail: texts.detail };
  });
  return [
    ...(current.length > 0 ? [separator(vscode.l10n.t('Now')), ...current] : []),
    separator(vscode.l10n.t('Add')),
    ...targets,
    {
      action: 'other',
      label: `$(symbol-misc) ${vscode.l10n.t('Another Node Type…')}`,
      detail: vscode.l10n.t('Any PostHog node type, e.g. ph-person-feed or ph-issues.'),
    },
    separator(''),
    { action: 'text', label: `$(edit) ${vscode.l10n.t('Edit as Text…')}`, description: contains ?? '', alwaysShow: true },
    { action: 'done', label: `$(check) ${vscode.l10n.t('Done')}`, alwaysShow: true },
  ];
}

function separator(label: string): ContainsItem {
  return { action: 'done', label, kind: vscode.QuickPickItemKind.Separator };
}

interface TargetTexts {
  readonly name: string;
  /** What an id after the colon is, for targets whose nodes have one. */
  readonly id?: string;
  readonly detail?: string;
  readonly icon?: string;
}

/** What each of PostHog's targets finds, in the user's words. */
function targetTexts(target: ContainsTarget): TargetTexts & { detail: string; icon: string } {
  switch (target) {
    case 'recording':
      return {
        name: vscode.l10n.t('Recording'),
        icon: 'device-camera-video',
        detail: vscode.l10n.t('A session recording embedded in the notebook. Id: the recording\'s session id.'),
        id: vscode.l10n.t("the recording's session id"),
      };
    case 'replay-timestamp':
      return {
        name: vscode.l10n.t('Replay timestamp'),
        icon: 'clock',
        detail: vscode.l10n.t('A moment of a recording written in a paragraph, as replay comments are. Id: the recording\'s session id.'),
        id: vscode.l10n.t("the session id of the recording it points into"),
      };
    case 'query':
      return {
        name: vscode.l10n.t('Insight or query'),
        icon: 'graph',
        detail: vscode.l10n.t('An insight or query (ph-query). Id: a saved insight\'s short id, from its URL.'),
        id: vscode.l10n.t("a saved insight's short id (in its URL: /insights/<short id>)"),
      };
    case 'feature-flag':
      return {
        name: vscode.l10n.t('Feature flag'),
        icon: 'symbol-boolean',
        detail: vscode.l10n.t("A feature flag. Id: the flag's number."),
        id: vscode.l10n.t("the flag's number (in its URL: /feature_flags/<number>)"),
      };
    case 'experiment':
      return {
        name: vscode.l10n.t('Experiment'),
        icon: 'beaker',
        detail: vscode.l10n.t("An experiment. Id: the experiment's number."),
        id: vscode.l10n.t("the experiment's number"),
      };
    case 'early-access-feature':
      return {
        name: vscode.l10n.t('Early access feature'),
        icon: 'rocket',
        detail: vscode.l10n.t("An early access feature. Id: the feature's UUID."),
        id: vscode.l10n.t("the feature's UUID"),
      };
    case 'survey':
      return {
        name: vscode.l10n.t('Survey'),
        icon: 'comment-discussion',
        detail: vscode.l10n.t("A survey. Id: the survey's UUID."),
        id: vscode.l10n.t("the survey's UUID"),
      };
    case 'cohort':
      return {
        name: vscode.l10n.t('Cohort'),
        icon: 'organization',
        detail: vscode.l10n.t("A cohort of persons. Id: the cohort's number."),
        id: vscode.l10n.t("the cohort's number"),
      };
    case 'person':
      return {
        name: vscode.l10n.t('Person'),
        icon: 'person',
        detail: vscode.l10n.t("A person. Id: the person's id as the node keeps it (a UUID; a distinct id in older notebooks)."),
        id: vscode.l10n.t("the person's id (a UUID; a distinct id in older notebooks)"),
      };
    case 'group':
      return {
        name: vscode.l10n.t('Group'),
        icon: 'briefcase',
        detail: vscode.l10n.t("A group (a company, a team…). Id: the group's key."),
        id: vscode.l10n.t("the group's key"),
      };
    case 'llm-trace':
      return {
        name: vscode.l10n.t('LLM trace'),
        icon: 'sparkle',
        detail: vscode.l10n.t('A trace from LLM analytics. Id: the trace id.'),
        id: vscode.l10n.t('the trace id'),
      };
    case 'recording-playlist':
      return {
        name: vscode.l10n.t('Recording playlist'),
        icon: 'list-unordered',
        detail: vscode.l10n.t('A list of recordings matching filters.'),
      };
    case 'python':
      return { name: vscode.l10n.t('Python cell'), icon: 'code', detail: vscode.l10n.t('A Python cell that runs in the notebook.') };
    case 'markdown-notebook':
      return {
        name: vscode.l10n.t('Markdown notebook'),
        icon: 'markdown',
        detail: vscode.l10n.t('Has one: Markdown notebooks; has none: rich-text (older) notebooks. Their tags are not seen.'),
      };
    case 'insight':
      return {
        name: vscode.l10n.t('Insight (legacy)'),
        icon: 'history',
        detail: vscode.l10n.t("Only old ph-insight nodes. Insights added today are queries: use Insight or query with the insight's short id."),
        id: vscode.l10n.t("the insight's short id"),
      };
  }
}

type MatchItem = vscode.QuickPickItem & { readonly match: 'true' | 'false' | 'id' };

/** How the notebook must hold the target: has one, has none, or that one (by id). */
async function askMatch(window: WindowApi, contains: string | undefined, target: string, texts: TargetTexts): Promise<string | undefined> {
  const items: MatchItem[] = [
    { match: 'true', label: `$(check) ${vscode.l10n.t('Has one')}`, description: `${target}:true` },
    { match: 'false', label: `$(circle-slash) ${vscode.l10n.t('Has none')}`, description: `${target}:false` },
  ];
  if (texts.id) {
    items.push({ match: 'id', label: `$(symbol-key) ${vscode.l10n.t('This One…')}`, description: `${target}:<id>`, detail: texts.id });
  }
  const picked = await window.showQuickPick(items, {
    title: vscode.l10n.t('Notebooks Containing: {0}', texts.name),
    placeHolder: vscode.l10n.t('Which notebooks to list'),
  });
  if (!picked) {
    return undefined;
  }
  if (picked.match !== 'id') {
    return addContainsPair(contains, { target, match: picked.match });
  }
  const id = await window.showInputBox({
    title: vscode.l10n.t('Notebooks Containing: {0}', texts.name),
    prompt: vscode.l10n.t('The id: {0}.', texts.id ?? ''),
    ignoreFocusOut: true,
    validateInput: (value) =>
      !value.trim()
        ? vscode.l10n.t('Type the id.')
        : /[\s,:]/.test(value.trim())
          ? vscode.l10n.t('An id cannot hold spaces, commas or colons: PostHog would read them as the start of another pair.')
          : undefined,
  });
  return id === undefined ? undefined : addContainsPair(contains, { target, match: id.trim() });
}

/** Any node type, as PostHog's content names it; returns what to type for it. */
async function askNodeType(window: WindowApi): Promise<string | undefined> {
  const nodeType = await window.showInputBox({
    title: vscode.l10n.t('Notebooks Containing: Another Node Type'),
    prompt: vscode.l10n.t('A node type of PostHog\'s notebook content, e.g. ph-person-feed.'),
    placeHolder: 'ph-person-feed',
    ignoreFocusOut: true,
    validateInput: (value) =>
      containsTargetFor(value.trim()) ? undefined : vscode.l10n.t('"{0}" is not a node type: lower-case words joined by hyphens, like ph-person-feed.', value.trim()),
  });
  return nodeType === undefined ? undefined : containsTargetFor(nodeType.trim());
}

/** What the contains text box says of a problem: an error blocks it, a warning explains. */
function containsMessage(problem: ContainsProblem | undefined): vscode.InputBoxValidationMessage | undefined {
  if (!problem) {
    return undefined;
  }
  const message = containsProblemText(problem);
  const severity = problem.severity === 'error' ? vscode.InputBoxValidationSeverity.Error : vscode.InputBoxValidationSeverity.Warning;
  return { message, severity };
}

function containsProblemText(problem: ContainsProblem): string {
  const { pair, suggestion, nodeType } = problem;
  switch (problem.kind) {
    case 'noTarget':
      return vscode.l10n.t('"{0}" has no target before the colon.', pair);
    case 'secondColon':
      return vscode.l10n.t('"{0}" has a second colon: PostHog reads only up to it.', pair);
    case 'emptyMatch':
      return vscode.l10n.t('"{0}" has nothing after the colon: PostHog would look for an empty id. Did you mean {1}?', pair, suggestion ?? '');
    case 'spelling':
      return vscode.l10n.t('"{0}" finds nothing: PostHog\'s node types are lower case with hyphens. Did you mean {1}?', pair, suggestion ?? '');
    case 'notNodeType':
      return vscode.l10n.t('"{0}" is not a target:match pair: the target is a node type without ph-, like recording or feature-flag.', pair);
    case 'matchCase':
      return vscode.l10n.t('"{0}": PostHog reads only lower-case true and false; this looks for a node with that id. Did you mean {1}?', pair, suggestion ?? '');
    case 'legacyInsight':
      return vscode.l10n.t('"{0}" finds only old ph-insight nodes. Insights added today are queries: query:<short id>.', pair);
    case 'plural':
      return vscode.l10n.t('"{0}" looks for {1}: PostHog drops one final s. Type {2} to find the node type with the s.', pair, nodeType, suggestion ?? '');
    case 'unknownNodeType':
      return vscode.l10n.t('"{0}" looks for {1} nodes, a type PostHog\'s notebooks are not known to hold: it may find nothing.', pair, nodeType);
  }
}
