import * as vscode from 'vscode';
import { errorText } from '../../api';
import type { PostHogLoss } from '../markdown';
import type { ConversionPlan } from '../session';

/** Up to this many losses are listed in the confirmation itself; more are summed up by kind, and listed in full on request. */
export const LISTED_LOSSES = 8;

/**
 * What "Convert to Markdown Notebook" asks before anything is sent: what PostHog then does with the notebook,
 * what becomes of its discussion threads, and every loss of this notebook with its kind and line (all of them,
 * or the first ones and a count by kind when there are many: `lossReport` lists them all).
 */
export function conversionDetail(plan: ConversionPlan): string {
  const parts = [
    vscode.l10n.t(
      'PostHog then stores it as Markdown (the form PostHog is moving notebooks to): its web app shows and edits it as a Markdown notebook, and embedded insights, recordings and other PostHog nodes stay as tags. Every editor opening it, in PostHog or here, sees the Markdown notebook. This cannot be undone from VS Code.',
    ),
  ];
  parts.push(...[commentsSentence(plan), mentionsSentence(plan)].filter((sentence) => sentence !== undefined));
  parts.push(lossesSummary(plan.losses));
  return parts.join('\n\n');
}

function commentsSentence(plan: ConversionPlan): string | undefined {
  const { comments } = plan;
  switch (comments.kind) {
    case 'none':
      return undefined;
    case 'read':
      return vscode.l10n.t('Its discussion threads ({0}) become <Comment> tags holding their comments ({1}), beside the highlighted text.', comments.threads, comments.replies);
    case 'unreadable':
      return vscode.l10n.t(
        'Its discussion threads ({0}) become <Comment> tags WITHOUT their comments: PostHog did not let this key read them ({1}). A key with the comment:read scope keeps them.',
        comments.threads,
        errorText(comments.error),
      );
  }
}

/** Only when the names could not be read: the losses list each mention written "@member" either way. */
function mentionsSentence(plan: ConversionPlan): string | undefined {
  const { mentions } = plan;
  if (mentions.kind !== 'unreadable') {
    return undefined;
  }
  return vscode.l10n.t(
    'The names of the members it mentions ({0}) could not be read: PostHog did not let this key read the organization\'s members ({1}), so they are written "@member". A key with the organization_member:read scope keeps them.',
    mentions.mentioned,
    errorText(mentions.error),
  );
}

function lossesSummary(losses: readonly PostHogLoss[]): string {
  if (losses.length === 0) {
    return vscode.l10n.t("PostHog's Markdown holds everything in this notebook.");
  }
  const heading = vscode.l10n.t("What PostHog's Markdown cannot hold ({0}):", losses.length);
  if (losses.length <= LISTED_LOSSES) {
    return [heading, ...losses.map(lossLine)].join('\n');
  }
  const shown = losses.slice(0, LISTED_LOSSES - 1).map(lossLine);
  const rest = losses.slice(LISTED_LOSSES - 1);
  const byKind = [...countByKind(rest)].map(([kind, count]) => `${count} × ${kindName(kind)}`).join(', ');
  return [heading, ...shown, vscode.l10n.t('… and {0} more: {1}. "Show All Losses" lists every one.', rest.length, byKind)].join('\n');
}

/** "Line 12 (block in list item): …", the line as the Markdown notebook will number it. */
function lossLine(loss: PostHogLoss): string {
  return vscode.l10n.t('Line {0} ({1}): {2}', loss.line + 1, kindName(loss.kind), loss.message);
}

function kindName(kind: string): string {
  return kind.replace(/-/g, ' ');
}

function countByKind(losses: readonly PostHogLoss[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const loss of losses) {
    counts.set(loss.kind, (counts.get(loss.kind) ?? 0) + 1);
  }
  return counts;
}

/** Every loss of the conversion, as a Markdown document to read before deciding (nothing was sent). */
export function lossReport(title: string, plan: ConversionPlan): string {
  const lines = [
    `# ${vscode.l10n.t('Converting "{0}" to a Markdown notebook', title)}`,
    '',
    vscode.l10n.t('Nothing was converted yet. Read the list, then run "PostHog: Convert to Markdown Notebook" again to convert.'),
    '',
    `## ${vscode.l10n.t("What PostHog's Markdown cannot hold ({0})", plan.losses.length)}`,
    '',
    ...[...countByKind(plan.losses)].map(([kind, count]) => `- ${kindName(kind)}: ${count}`),
    '',
    ...plan.losses.map((loss) => `- ${escapeLine(lossLine(loss))}`),
  ];
  const sentences = [commentsSentence(plan), mentionsSentence(plan)].filter((sentence) => sentence !== undefined);
  lines.splice(4, 0, ...sentences.flatMap((sentence) => [escapeLine(sentence), '']));
  return `${lines.join('\n')}\n`;
}

/** Text shown as written in the report's Markdown (tags in messages stay text). */
function escapeLine(text: string): string {
  return text.replace(/[\\`*_<>[\]]/g, '\\$&');
}
