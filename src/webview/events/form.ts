/// <reference lib="dom" />
// The filter form: fields with suggestions, property filter rows, and the buttons that query, stop and export.
import {
  defaultFilters,
  type ExtensionMessage,
  type FilterState,
  PROPERTY_OPERATORS,
  type PropertyRow,
  type WebviewMessage,
} from '../../events/protocol';
import { button, control, debounce, el, type ValueElement } from '../shared/dom';
import { t } from './l10n';

interface Field {
  wrapper: HTMLElement;
  input: ValueElement;
}

interface PropertyRowElements {
  element: HTMLElement;
  read(): PropertyRow;
}

type SuggestMessage = Extract<WebviewMessage, { type: 'suggest' }>;
type SuggestQuery = Omit<SuggestMessage, 'type' | 'requestId' | 'text'>;
type SuggestionsMessage = Extract<ExtensionMessage, { type: 'suggestions' }>;
type FieldErrorMessage = Extract<ExtensionMessage, { type: 'fieldError' }>;

export interface FormActions {
  send(message: WebviewMessage): void;
  /** Apply, Enter or Reset: list the events of these filters. */
  query(filters: FilterState): void;
}

const nativeValue = (field: Field): string => (field.input as unknown as HTMLInputElement).value;

export class FilterForm {
  readonly element = el('form', { class: 'filters', 'aria-label': t('Event filters') });
  /** Says how many suggestions came (screen readers do not announce a datalist's options). */
  readonly suggestionStatus = el('p', { class: 'visually-hidden', role: 'status', 'aria-live': 'polite' });
  private fieldIds = 0;
  private suggestionRequest = 0;
  private pendingSuggestion: { requestId: number; list: HTMLDataListElement; note: HTMLElement } | undefined;
  private readonly propertyRows = el('div', { class: 'property-rows', role: 'group', 'aria-label': t('Property filters') });
  private readonly propertyRowElements: PropertyRowElements[] = [];
  private readonly addProperty = button(t('Add property filter'), { secondary: true });
  private readonly stop = button(t('Stop loading'), { secondary: true });
  private readonly fields = {
    event: this.suggestInput('event', t('Event'), t('e.g. $pageview'), () => ({ field: 'event' })),
    distinctId: this.textField('distinctId', t('Distinct ID'), ''),
    personId: this.textField('personId', t('Person ID'), ''),
    after: this.textField('after', t('After'), t('-24h when empty; or -7d, 2024-05-01')),
    before: this.textField('before', t('Before'), t('e.g. -1h')),
    limit: this.textField('limit', t('Page size (at most 1,000)'), '100'),
  };
  private readonly propertiesJson = this.textArea('propertiesJson', t('Properties JSON (a list of {key, value, operator, type}, or an AND/OR group)'));
  private readonly columns = this.textField('columns', t('Columns (comma-separated HogQL expressions; empty: the PostHog defaults)'), t('e.g. properties.$browser, upper(event)'));
  private readonly where = this.textField('where', t('Where (a HogQL boolean expression)'), t('e.g. properties.$screen_width > 1000'));
  /** PostHog's HogQL error under the field it comes from, with the span it points at. */
  private readonly fieldErrors = { columns: this.errorNote(this.columns), where: this.errorNote(this.where) };
  private readonly exportLimit = this.textField('exportLimit', t('Rows to export (1 to 1,000,000)'), '1000');

  constructor(private readonly actions: FormActions) {
    this.layout();
    this.listen();
  }

  /** The form as the user typed it. */
  read(): FilterState {
    return {
      event: nativeValue(this.fields.event),
      distinctId: this.fields.distinctId.input.value ?? '',
      personId: this.fields.personId.input.value ?? '',
      after: this.fields.after.input.value ?? '',
      before: this.fields.before.input.value ?? '',
      limit: this.fields.limit.input.value ?? '',
      properties: this.propertyRowElements.map((row) => row.read()),
      propertiesJson: this.propertiesJson.input.value ?? '',
      columns: this.columns.input.value ?? '',
      where: this.where.input.value ?? '',
      exportLimit: this.exportLimit.input.value ?? '',
    };
  }

  fill(filters: FilterState): void {
    (this.fields.event.input as unknown as HTMLInputElement).value = filters.event;
    this.fields.distinctId.input.value = filters.distinctId;
    this.fields.personId.input.value = filters.personId;
    this.fields.after.input.value = filters.after;
    this.fields.before.input.value = filters.before;
    this.fields.limit.input.value = filters.limit;
    this.propertiesJson.input.value = filters.propertiesJson;
    this.columns.input.value = filters.columns;
    this.where.input.value = filters.where;
    this.exportLimit.input.value = filters.exportLimit;
    this.propertyRows.replaceChildren();
    this.propertyRowElements.length = 0;
    filters.properties.forEach((row) => this.addPropertyRow(row));
  }

  /** The panel looked further back than the form said: After shows the range listed. */
  setAfter(after: string): void {
    this.fields.after.input.value = after;
  }

  /** PostHog's message under the field, the span it points at marked in the text it counts in. */
  showFieldError(message: FieldErrorMessage): void {
    const note = this.fieldErrors[message.field];
    const { text, start, end } = message;
    note.replaceChildren(el('span', {}, message.message));
    if (start !== undefined && start <= text.length) {
      const stop = Math.min(Math.max(end ?? start + 1, start + 1), text.length);
      const code = el('code', { class: 'hogql-span' });
      code.append(text.slice(0, start), el('mark', {}, text.slice(start, stop) || ' '), text.slice(stop));
      note.append(' ', code);
    }
    note.hidden = false;
  }

  clearFieldErrors(): void {
    for (const note of Object.values(this.fieldErrors)) {
      note.replaceChildren();
      note.hidden = true;
    }
  }

  /** Stop loading is there to press only while something loads. */
  setLoading(loading: boolean): void {
    this.stop.toggleAttribute('disabled', !loading);
  }

  /** The answer to the newest suggestion request (older answers are dropped). */
  showSuggestions(message: SuggestionsMessage): void {
    if (this.pendingSuggestion?.requestId !== message.requestId) {
      return;
    }
    const { list, note } = this.pendingSuggestion;
    list.replaceChildren(...message.values.map((value) => el('option', { value })));
    const text = message.error ?? message.note ?? '';
    note.textContent = text;
    note.hidden = !text;
    note.classList.toggle('error', message.error !== undefined);
    note.setAttribute('role', message.error === undefined ? 'status' : 'alert');
    this.suggestionStatus.textContent = message.values.length ? t('{0} suggestions', message.values.length) : t('No suggestions');
  }

  private layout(): void {
    const grid = el('div', { class: 'field-grid' });
    grid.append(...Object.values(this.fields).map((field) => field.wrapper));
    const hogql = el('div', { class: 'hogql-fields' });
    hogql.append(this.columns.wrapper, this.where.wrapper);
    const advanced = el('vscode-collapsible', { title: t('More: raw properties JSON, rows to export') });
    const advancedBody = el('div', { class: 'advanced' });
    advancedBody.append(this.propertiesJson.wrapper, this.exportLimit.wrapper);
    advanced.append(advancedBody);
    const propertyGroup = el('fieldset', { class: 'properties' });
    propertyGroup.append(el('legend', {}, t('Property filters')), this.propertyRows, this.addProperty);
    this.element.append(grid, hogql, propertyGroup, advanced, this.actionButtons());
  }

  private actionButtons(): HTMLElement {
    const apply = button(t('Apply'));
    const reset = button(t('Reset'), { secondary: true });
    const exports = [
      [button(t('Export CSV…'), { secondary: true }), 'csv'],
      [button(t('Export JSON…'), { secondary: true }), 'json'],
      [button(t('Export JSON Lines…'), { secondary: true }), 'jsonl'],
    ] as const;
    apply.addEventListener('click', () => this.runQuery());
    reset.addEventListener('click', () => {
      this.fill(defaultFilters());
      this.runQuery();
    });
    this.stop.addEventListener('click', () => this.actions.send({ type: 'cancel' }));
    for (const [exportButton, format] of exports) {
      exportButton.addEventListener('click', () => this.actions.send({ type: 'export', format, filters: this.read() }));
    }
    const actions = el('div', { class: 'actions' });
    actions.append(apply, reset, this.stop, ...exports.map(([exportButton]) => exportButton));
    return actions;
  }

  private listen(): void {
    this.element.addEventListener('submit', (event) => {
      event.preventDefault();
      this.runQuery();
    });
    this.element.addEventListener('keydown', (event) => {
      const target = event.target instanceof HTMLElement ? event.target.tagName : '';
      if (event.key === 'Enter' && (target === 'INPUT' || target === 'VSCODE-TEXTFIELD')) {
        event.preventDefault();
        this.runQuery();
      }
    });
    this.addProperty.addEventListener('click', () => this.addPropertyRow());
  }

  private runQuery(): void {
    this.actions.query(this.read());
  }

  private labelled(labelText: string, input: HTMLElement): HTMLElement {
    input.id ||= `field-${++this.fieldIds}`;
    const wrapper = el('div', { class: 'field' });
    wrapper.append(el('vscode-label', { for: input.id }, labelText), input);
    return wrapper;
  }

  private textField(name: string, labelText: string, placeholder: string): Field {
    const input = control('vscode-textfield', { name, placeholder, label: labelText });
    return { wrapper: this.labelled(labelText, input), input };
  }

  private errorNote(field: Field): HTMLElement {
    const note = el('p', { class: 'field-note error field-error', role: 'alert', hidden: true });
    note.id = `${field.input.id}-error`;
    field.input.setAttribute('aria-describedby', note.id);
    field.wrapper.append(note);
    return note;
  }

  private textArea(name: string, labelText: string): Field {
    const input = control('vscode-textarea', { name, rows: 3, label: labelText, resize: 'vertical', monospace: true });
    return { wrapper: this.labelled(labelText, input), input };
  }

  /**
   * A native input with a datalist: the browser shows the suggestions accessibly. A note under the field
   * says why there are none (e.g. "type an event name first") or that asking for them failed.
   */
  private suggestInput(name: string, labelText: string, placeholder: string, query: () => SuggestQuery): Field {
    const id = ++this.fieldIds;
    const list = el('datalist', { id: `suggest-${name}-${id}` });
    const note = el('p', { class: 'field-note', id: `note-${name}-${id}`, 'aria-live': 'polite', hidden: true });
    const input = el('input', {
      class: 'native-input',
      name,
      placeholder,
      list: list.id,
      autocomplete: 'off',
      spellcheck: 'false',
      'aria-describedby': note.id,
    });
    const ask = debounce(() => this.suggest({ ...query(), text: input.value }, list, note), 300);
    input.addEventListener('input', ask);
    input.addEventListener('focus', ask, { once: true });
    const wrapper = this.labelled(labelText, input);
    wrapper.append(list, note);
    return { wrapper, input: input as unknown as ValueElement };
  }

  private suggest(query: SuggestQuery & { text: string }, list: HTMLDataListElement, note: HTMLElement): void {
    const requestId = ++this.suggestionRequest;
    this.pendingSuggestion = { requestId, list, note };
    this.actions.send({ type: 'suggest', requestId, ...query });
  }

  private addPropertyRow(row: PropertyRow = { key: '', operator: 'exact', value: '', type: 'event' }): void {
    const element = el('div', { class: 'property-row', role: 'group', 'aria-label': t('Property filter {0}', this.propertyRowElements.length + 1) });
    const key = this.textField('key', t('Key'), t('e.g. $browser'));
    key.input.value = row.key;
    const operator = control('vscode-single-select', { label: t('Operator') });
    operator.append(...PROPERTY_OPERATORS.map((name) => el('vscode-option', { value: name }, name)));
    const type = control('vscode-single-select', { label: t('Type') });
    type.append(el('vscode-option', { value: 'event' }, 'event'), el('vscode-option', { value: 'person' }, 'person'));
    const value = this.suggestInput('value', t('Value'), '', () => ({
      field: 'propertyValue',
      key: key.input.value,
      propertyType: type.value === 'person' ? 'person' : 'event',
      eventName: nativeValue(this.fields.event),
    }));
    (value.input as unknown as HTMLInputElement).value = row.value;
    const remove = button(t('Remove'), { secondary: true, 'aria-label': t('Remove this property filter') });
    const entry: PropertyRowElements = {
      element,
      read: () => ({
        key: key.input.value,
        operator: (PROPERTY_OPERATORS as readonly string[]).includes(operator.value) ? (operator.value as PropertyRow['operator']) : 'exact',
        value: nativeValue(value),
        type: type.value === 'person' ? 'person' : 'event',
      }),
    };
    remove.addEventListener('click', () => {
      this.propertyRowElements.splice(this.propertyRowElements.indexOf(entry), 1);
      element.remove();
      this.addProperty.focus();
    });
    element.append(key.wrapper, this.labelled(t('Operator'), operator), value.wrapper, this.labelled(t('Type'), type), remove);
    this.propertyRows.append(element);
    this.propertyRowElements.push(entry);
    // The selects take their value once their options are upgraded.
    requestAnimationFrame(() => {
      operator.value = row.operator;
      type.value = row.type;
    });
  }
}
