/// <reference lib="dom" />
// The Live toggle, what Live is doing, and the "N new events" button that scrolls back up to them.
import type { ExtensionMessage, LiveTexts, WebviewMessage } from '../../events/protocol';
import { button, el } from './dom';
import type { VirtualTable } from './table';

/** Until the extension sends its words (init). */
const ENGLISH: LiveTexts = {
  live: 'Live',
  liveTitle: 'Show new events at the top as they arrive',
  newEvents: '{0} new events',
  newEvent: '1 new event',
  searchProperties: 'Search properties',
  copyPath: 'Copy path',
  copyValue: 'Copy value',
  noPropertyMatches: 'No property matches.',
};

export class LiveControls {
  readonly element = el('div', { class: 'live' });
  texts: LiveTexts = ENGLISH;
  private on = false;
  private unseen = 0;
  private readonly toggle = button(ENGLISH.live, { secondary: true, class: 'live-toggle', 'aria-pressed': 'false', title: ENGLISH.liveTitle });
  private readonly status = el('span', { class: 'live-status', role: 'status', 'aria-live': 'polite' });
  private readonly newer = button('', { class: 'live-new', hidden: true });

  constructor(
    private readonly table: VirtualTable,
    send: (message: WebviewMessage) => void,
  ) {
    this.element.append(this.toggle, this.status, this.newer);
    this.toggle.addEventListener('click', () => send({ type: 'live', on: !this.on }));
    this.newer.addEventListener('click', () => {
      this.table.scrollTo(0);
      this.clearUnseen();
      this.table.focus();
    });
    this.table.element.addEventListener('scroll', () => {
      if (this.table.isAtTop) this.clearUnseen();
    });
  }

  setTexts(texts: Partial<LiveTexts> | undefined): void {
    this.texts = { ...ENGLISH, ...texts };
    this.toggle.textContent = this.texts.live;
    this.toggle.title = this.texts.liveTitle;
  }

  state(message: Extract<ExtensionMessage, { type: 'liveState' }>): void {
    this.on = message.on;
    this.toggle.setAttribute('aria-pressed', String(message.on));
    this.toggle.toggleAttribute('secondary', !message.on);
    this.status.textContent = message.text;
    this.status.classList.toggle('error', message.error === true);
    if (!message.on) this.clearUnseen();
  }

  rows(message: Extract<ExtensionMessage, { type: 'liveRows' }>): void {
    if (this.table.prepend(message.rows, message.keep)) {
      this.unseen += message.rows.length;
      this.newer.textContent = this.unseen === 1 ? this.texts.newEvent : this.texts.newEvents.replace('{0}', this.unseen.toLocaleString());
      this.newer.hidden = false;
    }
  }

  /** A new listing: nothing unseen. */
  reset(): void {
    this.clearUnseen();
  }

  private clearUnseen(): void {
    this.unseen = 0;
    this.newer.hidden = true;
  }
}
