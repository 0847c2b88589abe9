/// <reference lib="dom" />
// An event's detail: its facts, copy buttons, the properties as a tree and the rest as JSON text.
import type { EventDetail, ExtensionMessage, WebviewMessage } from '../../events/protocol';
import { button, el } from '../shared/dom';
import { t } from './l10n';
import { propertyTree } from './propertyTree';
import type { VirtualTable } from './table';

type DetailMessage = Extract<ExtensionMessage, { type: 'detail' }>;

const TREE_TEXTS = {
  searchProperties: t('Search properties'),
  copyPath: t('Copy path'),
  copyValue: t('Copy value'),
  noPropertyMatches: t('No property matches.'),
};

export class EventDetailView {
  readonly element = el('section', { class: 'detail', 'aria-labelledby': 'detail-heading', hidden: true });
  private readonly heading = el('h2', { id: 'detail-heading', tabindex: -1 }, t('Event'));
  private readonly body = el('div', { class: 'detail-body' });
  /** The event shown (or being loaded), and its person as the table showed it. */
  private shown: { id: string; person: string } | undefined;

  constructor(
    private readonly table: VirtualTable,
    private readonly send: (message: WebviewMessage) => void,
  ) {
    const close = button(t('Close'), { secondary: true });
    const title = el('div', { class: 'detail-title' });
    title.append(this.heading, close);
    this.element.append(title, this.body);
    close.addEventListener('click', () => this.hide());
    this.element.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') this.hide();
    });
  }

  /** Asks for the event of the table's row `index` and shows that it is loading. */
  open(index: number, id: string): void {
    this.element.hidden = false;
    this.heading.textContent = t('Event {0}', this.table.cellText(index, 1));
    this.body.replaceChildren(el('p', {}, t('Loading…')));
    this.shown = { id, person: this.table.cellText(index, 3) };
    this.send({ type: 'open', id });
    this.heading.focus();
  }

  /** The extension's answer: the event, why it could not be loaded, or what loading waits for. */
  show(message: DetailMessage): void {
    if (this.shown?.id !== message.id) {
      return;
    }
    if (message.detail) {
      this.body.replaceChildren(...this.contents(message.detail, this.shown.person));
    } else if (message.error !== undefined) {
      this.body.replaceChildren(el('p', { class: 'error', role: 'alert' }, message.error || t('The event could not be loaded.')));
    } else if (message.waiting !== undefined) {
      const waiting = el('p', { class: 'waiting', role: 'status', 'aria-live': 'polite' }, message.waiting);
      this.body.replaceChildren(el('p', {}, t('Loading…')), waiting);
    } else {
      this.body.replaceChildren(el('p', { class: 'error', role: 'alert' }, t('The event could not be loaded.')));
    }
  }

  hide(): void {
    if (this.shown) {
      this.send({ type: 'closeDetail', id: this.shown.id });
    }
    this.element.hidden = true;
    this.shown = undefined;
    this.table.focus();
  }

  private contents(value: EventDetail, person: string): HTMLElement[] {
    const facts = el('dl', { class: 'facts' });
    const fact = (name: string, text: string) => facts.append(el('dt', {}, name), el('dd', {}, text));
    fact(t('ID'), value.id);
    fact(t('Event'), value.event);
    fact(t('Time'), value.timestamp);
    fact(t('Distinct ID'), value.distinctId);
    fact(t('Person'), person);
    const copies = el('div', { class: 'actions' });
    const copy = (label: string, text: string) => {
      const copyButton = button(label, { secondary: true });
      copyButton.addEventListener('click', () => this.send({ type: 'copy', text }));
      copies.append(copyButton);
    };
    copy(t('Copy ID'), value.id);
    copy(t('Copy properties'), value.properties);
    copy(t('Copy event JSON'), value.raw);
    return [
      facts,
      copies,
      ...(this.propertiesBlock(value.properties) ?? jsonBlock(t('Properties'), value.properties)),
      ...jsonBlock(t('Person'), value.person),
      ...jsonBlock(t('Elements'), value.elements),
      ...jsonBlock(t('Elements chain'), value.elementsChain),
    ];
  }

  /** The properties as a tree with search and copy (the JSON as text when it does not parse). */
  private propertiesBlock(properties: string): HTMLElement[] | undefined {
    let parsed: unknown;
    try {
      parsed = JSON.parse(properties);
    } catch {
      return undefined;
    }
    if (!parsed || typeof parsed !== 'object') return undefined;
    const title = el('h3', { id: 'detail-properties' }, t('Properties'));
    return [title, propertyTree(parsed, TREE_TEXTS, (text) => this.send({ type: 'copy', text }))];
  }
}

/** A heading and a JSON text block; nothing when there is no value. */
function jsonBlock(title: string, text: string): HTMLElement[] {
  if (!text || text === 'null') return [];
  const headingId = `detail-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return [el('h3', { id: headingId }, title), el('pre', { class: 'json', tabindex: 0, 'aria-labelledby': headingId }, text)];
}
