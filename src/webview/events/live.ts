/// <reference lib="dom" />
// The Live toggle, what Live is doing, and the "N new events" button that scrolls back up to them.
import type { ExtensionMessage, WebviewMessage } from '../../events/protocol';
import { button, el } from './dom';
import { t } from './l10n';
import type { VirtualTable } from './table';

export class LiveControls {
  readonly element = el('div', { class: 'live' });
  private on = false;
  private unseen = 0;
  private readonly toggle = button(t('Live'), { secondary: true, class: 'live-toggle', 'aria-pressed': 'false', title: t('Show new events at the top as they arrive') });
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

  /** A new listing: nothing unseen. */
  reset(): void {
    this.clearUnseen();
  }

  private clearUnseen(): void {
    this.unseen = 0;
    this.newer.hidden = true;
  }
}
