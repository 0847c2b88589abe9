/// <reference lib="dom" />
// The Live toggle, what Live is doing, and the "N new events" button that scrolls back up to them.
import type { ExtensionMessage, WebviewMessage } from '../../events/protocol';
import { button, el } from '../shared/dom';
import { t } from './l10n';
import type { VirtualTable } from './table';

export class LiveControls {
  readonly element = el('div', { class: 'live' });
  /** Shown when Live skipped events to stay within the key's budget, with a button to load them. */
  readonly gapElement = el('div', { class: 'live-gap', role: 'status', hidden: true });
  private readonly gapText = el('span', {});
  private readonly loadGap = button(t('Load them'), { secondary: true });
  private on = false;
  private unseen = 0;
  private readonly toggle = button(t('Live'), { secondary: true, class: 'live-toggle', 'aria-pressed': 'false', title: t('Show new events at the top as they arrive') });
  private readonly status = el('span', { class: 'live-status', role: 'status', 'aria-live': 'polite' });
  private readonly newer = button('', { class: 'live-new', hidden: true });

  constructor(
    private readonly table: VirtualTable,
    send: (message: WebviewMessage) => void,
    private readonly timeAt: (iso: string) => string,
  ) {
    this.element.append(this.toggle, this.status, this.newer);
    this.gapElement.append(this.gapText, this.loadGap);
    this.loadGap.addEventListener('click', () => send({ type: 'loadGap' }));
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
      this.newer.textContent = this.unseen === 1 ? t('1 new event') : t('{0} new events', this.unseen.toLocaleString());
      this.newer.hidden = false;
    }
  }

  /** Live skipped events (kept until the next listing, which loads them). */
  gap(message: Extract<ExtensionMessage, { type: 'liveGap' }>): void {
    this.gapText.textContent = t('Live skipped the events between {0} and {1} to stay within the PostHog limit of this API key.', this.timeAt(message.after), this.timeAt(message.before));
    this.gapElement.hidden = false;
  }

  /** A new listing: nothing unseen, no gap. */
  reset(): void {
    this.clearUnseen();
    this.gapElement.hidden = true;
  }

  private clearUnseen(): void {
    this.unseen = 0;
    this.newer.hidden = true;
  }
}
