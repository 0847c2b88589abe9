/**
 * A demo collaborator (`npm start -- --live-notebook`, CLI `--live-notebook`): a teammate typing in PostHog's web
 * app. It makes a Markdown notebook, "Live notes (demo collaborator)", in the first project and types into it a
 * word at a time through the collaboration endpoints' save (each word a version, streamed with its author and
 * caret), its caret broadcast as it goes. Open the notebook to watch it arrive; type elsewhere in it meanwhile.
 */
import type { Notebook } from './model';
import type { Store } from './store';
import { markdownDoc, markdownOf } from './content';
import { editor, webEdit } from './collab-control';
import { presenceData } from './routes/collab';

export const DEMO_NOTEBOOK_TITLE = 'Live notes (demo collaborator)';
const TYPING_MS = 1_200;
const KEPT_PARAGRAPHS = 8;
const COLLABORATOR = { first_name: 'Robin', last_name: 'Demo', email: 'robin.demo@hedgebox.net' };

const SENTENCES = [
  'Signups recovered on Thursday after the captcha fix shipped.',
  'Mobile Safari still converts four points below Chrome on the pricing page.',
  'Next week: compare the new onboarding checklist against the old tour.',
  'The funnel from pricing to signup is back at 44% for returning visitors.',
  'Support tickets about the form dropped from 31 to 6 this week.',
];

const INTRO = [
  '# Live notes',
  '',
  'Robin types below this line from the web app. Edit any other paragraph in VS Code meanwhile: their words',
  'arrive in your editor as you type, and both of you save without a conflict.',
  '',
  '## Notes',
  '',
].join('\n');

export class DemoCollaborator {
  private timer: ReturnType<typeof setInterval> | undefined;
  private sentence = 0;
  private word = 0;
  readonly notebook: Notebook;

  constructor(private readonly store: Store) {
    const project = store.visibleProjects()[0];
    if (!project) throw new Error('The demo collaborator needs a project');
    const user = editor(store, COLLABORATOR);
    this.notebook =
      store.notebooksOf(project.id).find((n) => n.title === DEMO_NOTEBOOK_TITLE && !n.deleted) ??
      store.createNotebook(project.id, { title: DEMO_NOTEBOOK_TITLE, content: markdownDoc(INTRO), text_content: INTRO }, user.id);
  }

  start(): void {
    this.timer ??= setInterval(() => this.typeWord(), TYPING_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One word more of the current sentence (a new paragraph for its first word), then the caret after it. */
  private typeWord(): void {
    const markdown = markdownOf(this.notebook.content);
    if (markdown === undefined || this.notebook.deleted) return;
    const words = SENTENCES[this.sentence % SENTENCES.length]!.split(' ');
    const paragraphs = markdown.replace(/\n+$/, '').split(/\n{2,}/);
    if (this.word === 0) paragraphs.push(words[0]!);
    else paragraphs[paragraphs.length - 1] += ` ${words[this.word]}`;
    const notes = paragraphs.findIndex((paragraph) => paragraph === '## Notes');
    while (notes >= 0 && paragraphs.length - notes - 1 > KEPT_PARAGRAPHS) paragraphs.splice(notes + 1, 1);
    const last = paragraphs[paragraphs.length - 1]!;
    const cursor = { node_index: paragraphs.length - 1, offset: last.length };
    try {
      webEdit(this.store, this.notebook, { markdown: `${paragraphs.join('\n\n')}\n`, by: COLLABORATOR, clientId: 'demo-collaborator', cursor });
      const user = editor(this.store, COLLABORATOR);
      this.store.collab.publishPresence(this.notebook, presenceData('demo-collaborator', user, this.notebook.version, cursor));
    } catch {
      return; // the notebook changed shape (e.g. converted): try again on the next tick
    }
    this.word = (this.word + 1) % words.length;
    if (this.word === 0) this.sentence++;
  }
}
