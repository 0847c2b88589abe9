/// <reference lib="dom" />
// The events webview: a filter form, a virtual results table and an event's detail. It makes no
// request of its own: it asks the extension, and checks every message it gets back.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import '@vscode-elements/elements/dist/vscode-label/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import {
  defaultFilters,
  type EventDetail,
  type ExtensionMessage,
  type FilterState,
  PanelStateSchema,
  parseExtensionMessage,
  PROPERTY_OPERATORS,
  type PropertyRow,
  type WebviewMessage,
} from '../../events/protocol';
import { button, control, debounce, el, type ValueElement } from './dom';
import { t } from './l10n';
import { LiveControls } from './live';
import { propertyTree } from './propertyTree';
import { VirtualTable } from './table';
import { TimeText } from './timeText';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const send = (message: WebviewMessage) => vscode.postMessage(message);

let generation = -1;
let projectInfo: { connectionId: string; id: number; name: string } | undefined;
let pendingScrollTop = 0;
let suggestionRequest = 0;
let pendingSuggestion: { requestId: number; list: HTMLDataListElement; note: HTMLElement } | undefined;
let times = new TimeText();

// ---- layout ---------------------------------------------------------------------------------------------

const app = document.getElementById('app')!;
const heading = el('h1', {}, t('Events'));
const status = el('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
/** The time range asked: never unbounded, so always said. */
const rangeLine = el('p', { class: 'range' });
/** What loading waits for (PostHog's limit for the key), and notes about the rows. */
const waitLine = el('p', { class: 'waiting', role: 'status', 'aria-live': 'polite', hidden: true });
const noteLine = el('p', { class: 'note', role: 'status', hidden: true });
const alertBox = el('p', { class: 'error', role: 'alert' });
const suggestionStatus = el('p', { class: 'visually-hidden', role: 'status', 'aria-live': 'polite' });
const ring = el('vscode-progress-ring', { class: 'ring', hidden: true, 'aria-hidden': 'true' });

const form = el('form', { class: 'filters', 'aria-label': t('Event filters') });
const fields = {
  event: suggestInput('event', t('Event'), t('e.g. $pageview'), () => ({ field: 'event' })),
  distinctId: textField('distinctId', t('Distinct ID'), ''),
  personId: textField('personId', t('Person ID'), ''),
  after: textField('after', t('After'), t('-24h when empty; or -7d, 2024-05-01')),
  before: textField('before', t('Before'), t('e.g. -1h')),
  limit: textField('limit', t('Page size (at most 1,000)'), '100'),
};
const propertyRows = el('div', { class: 'property-rows', role: 'group', 'aria-label': t('Property filters') });
const addProperty = button(t('Add property filter'), { secondary: true });
const advanced = el('vscode-collapsible', { title: t('More: raw properties JSON, columns, rows to export') });
const propertiesJson = textArea('propertiesJson', t('Properties JSON (a list of {key, value, operator, type}, or an AND/OR group)'));
const columns = textField('columns', t('Property columns (comma-separated keys)'), '$current_url, $browser');
const exportLimit = textField('exportLimit', t('Rows to export (1 to 1,000,000)'), '1000');
const apply = button(t('Apply'));
const reset = button(t('Reset'), { secondary: true });
const stop = button(t('Stop loading'), { secondary: true });
const exportCsv = button(t('Export CSV…'), { secondary: true });
const exportJson = button(t('Export JSON…'), { secondary: true });
const exportJsonLines = button(t('Export JSON Lines…'), { secondary: true });

const table = new VirtualTable({
  needMore: (lastVisible) => {
    if (generation >= 0) send({ type: 'need', generation, upTo: lastVisible });
  },
  open: (index, id) => openDetail(index, id),
  scrolled: debounce((scrollTop: number) => saveState({ scrollTop }), 200),
});
const live = new LiveControls(table, send, (iso) => times.at(iso));
const TREE_TEXTS = {
  searchProperties: t('Search properties'),
  copyPath: t('Copy path'),
  copyValue: t('Copy value'),
  noPropertyMatches: t('No property matches.'),
};

const detail = el('section', { class: 'detail', 'aria-labelledby': 'detail-heading', hidden: true });
const detailHeading = el('h2', { id: 'detail-heading', tabindex: -1 }, t('Event'));
const detailBody = el('div', { class: 'detail-body' });
const closeDetail = button(t('Close'), { secondary: true });
detail.append(el('div', { class: 'detail-title' }, ''), detailBody);
detail.firstElementChild!.append(detailHeading, closeDetail);

function layout(): void {
  const grid = el('div', { class: 'field-grid' });
  grid.append(...Object.values(fields).map((field) => field.wrapper));
  const advancedBody = el('div', { class: 'advanced' });
  advancedBody.append(propertiesJson.wrapper, columns.wrapper, exportLimit.wrapper);
  advanced.append(advancedBody);
  const actions = el('div', { class: 'actions' });
  actions.append(apply, reset, stop, exportCsv, exportJson, exportJsonLines);
  const propertyGroup = el('fieldset', { class: 'properties' });
  propertyGroup.append(el('legend', {}, t('Property filters')), propertyRows, addProperty);
  form.append(grid, propertyGroup, advanced, actions);
  const results = el('section', { class: 'results', 'aria-label': t('Results') });
  const statusLine = el('div', { class: 'status-line' });
  statusLine.append(ring, status, live.element);
  results.append(rangeLine, statusLine, waitLine, noteLine, live.gapElement, alertBox, table.element);
  const header = el('header');
  header.append(heading);
  app.append(header, form, suggestionStatus, results, detail);
  app.removeAttribute('aria-busy');
}

// ---- form -----------------------------------------------------------------------------------------------

interface Field {
  wrapper: HTMLElement;
  input: ValueElement;
}

let fieldIds = 0;

function labelled(labelText: string, input: HTMLElement): HTMLElement {
  const id = input.id || `field-${++fieldIds}`;
  input.id = id;
  const wrapper = el('div', { class: 'field' });
  wrapper.append(el('vscode-label', { for: id }, labelText), input);
  return wrapper;
}

function textField(name: string, labelText: string, placeholder: string): Field {
  const input = control('vscode-textfield', { name, placeholder, label: labelText });
  return { wrapper: labelled(labelText, input), input };
}

function textArea(name: string, labelText: string): Field {
  const input = control('vscode-textarea', { name, rows: 3, label: labelText, resize: 'vertical', monospace: true });
  return { wrapper: labelled(labelText, input), input };
}

type SuggestMessage = Extract<WebviewMessage, { type: 'suggest' }>;
type SuggestQuery = Omit<SuggestMessage, 'type' | 'requestId' | 'text'>;

/**
 * A native input with a datalist: the browser shows the suggestions accessibly. A note under the field
 * says why there are none (e.g. "type an event name first") or that asking for them failed.
 */
function suggestInput(name: string, labelText: string, placeholder: string, query: () => SuggestQuery): Field {
  const list = el('datalist', { id: `suggest-${name}-${++fieldIds}` });
  const note = el('p', { class: 'field-note', id: `note-${name}-${fieldIds}`, 'aria-live': 'polite', hidden: true });
  const input = el('input', {
    class: 'native-input',
    name,
    placeholder,
    list: list.id,
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': note.id,
  });
  const ask = debounce(() => suggest({ ...query(), text: input.value }, list, note), 300);
  input.addEventListener('input', ask);
  input.addEventListener('focus', ask, { once: true });
  const wrapper = labelled(labelText, input);
  wrapper.append(list, note);
  return { wrapper, input: input as unknown as ValueElement };
}

function suggest(query: SuggestQuery & { text: string }, list: HTMLDataListElement, note: HTMLElement): void {
  const requestId = ++suggestionRequest;
  pendingSuggestion = { requestId, list, note };
  send({ type: 'suggest', requestId, ...query });
}

function showSuggestions(message: Extract<ExtensionMessage, { type: 'suggestions' }>): void {
  if (pendingSuggestion?.requestId !== message.requestId) {
    return;
  }
  const { list, note } = pendingSuggestion;
  list.replaceChildren(...message.values.map((value) => el('option', { value })));
  const text = message.error ?? message.note ?? '';
  note.textContent = text;
  note.hidden = !text;
  note.classList.toggle('error', message.error !== undefined);
  note.setAttribute('role', message.error === undefined ? 'status' : 'alert');
  suggestionStatus.textContent = message.values.length ? t('{0} suggestions', message.values.length) : t('No suggestions');
}

const eventNameNow = (): string => (fields.event.input as unknown as HTMLInputElement).value;

interface PropertyRowElements {
  element: HTMLElement;
  read(): PropertyRow;
}
const propertyRowElements: PropertyRowElements[] = [];

function addPropertyRow(row: PropertyRow = { key: '', operator: 'exact', value: '', type: 'event' }): void {
  const element = el('div', { class: 'property-row', role: 'group', 'aria-label': t('Property filter {0}', propertyRowElements.length + 1) });
  const key = textField('key', t('Key'), t('e.g. $browser'));
  key.input.value = row.key;
  const operator = control('vscode-single-select', { label: t('Operator') });
  operator.append(...PROPERTY_OPERATORS.map((name) => el('vscode-option', { value: name }, name)));
  const type = control('vscode-single-select', { label: t('Type') });
  type.append(el('vscode-option', { value: 'event' }, 'event'), el('vscode-option', { value: 'person' }, 'person'));
  const value = suggestInput('value', t('Value'), '', () => ({
    field: 'propertyValue',
    key: key.input.value,
    propertyType: type.value === 'person' ? 'person' : 'event',
    eventName: eventNameNow(),
  }));
  (value.input as unknown as HTMLInputElement).value = row.value;
  const remove = button(t('Remove'), { secondary: true, 'aria-label': t('Remove this property filter') });
  const entry: PropertyRowElements = {
    element,
    read: () => ({
      key: key.input.value,
      operator: (PROPERTY_OPERATORS as readonly string[]).includes(operator.value) ? (operator.value as PropertyRow['operator']) : 'exact',
      value: (value.input as unknown as HTMLInputElement).value,
      type: type.value === 'person' ? 'person' : 'event',
    }),
  };
  remove.addEventListener('click', () => {
    propertyRowElements.splice(propertyRowElements.indexOf(entry), 1);
    element.remove();
    addProperty.focus();
  });
  element.append(key.wrapper, labelled(t('Operator'), operator), value.wrapper, labelled(t('Type'), type), remove);
  propertyRows.append(element);
  propertyRowElements.push(entry);
  // The selects take their value once their options are upgraded.
  requestAnimationFrame(() => {
    operator.value = row.operator;
    type.value = row.type;
  });
}

function readForm(): FilterState {
  const native = (field: Field) => (field.input as unknown as HTMLInputElement).value;
  return {
    event: native(fields.event),
    distinctId: fields.distinctId.input.value ?? '',
    personId: fields.personId.input.value ?? '',
    after: fields.after.input.value ?? '',
    before: fields.before.input.value ?? '',
    limit: fields.limit.input.value ?? '',
    properties: propertyRowElements.map((row) => row.read()),
    propertiesJson: propertiesJson.input.value ?? '',
    columns: columns.input.value ?? '',
    exportLimit: exportLimit.input.value ?? '',
  };
}

function fillForm(filters: FilterState): void {
  (fields.event.input as unknown as HTMLInputElement).value = filters.event;
  fields.distinctId.input.value = filters.distinctId;
  fields.personId.input.value = filters.personId;
  fields.after.input.value = filters.after;
  fields.before.input.value = filters.before;
  fields.limit.input.value = filters.limit;
  propertiesJson.input.value = filters.propertiesJson;
  columns.input.value = filters.columns;
  exportLimit.input.value = filters.exportLimit;
  propertyRows.replaceChildren();
  propertyRowElements.length = 0;
  filters.properties.forEach((row) => addPropertyRow(row));
}

function runQuery(): void {
  const filters = readForm();
  saveState({ filters, scrollTop: 0 });
  send({ type: 'query', filters });
}

// ---- detail ---------------------------------------------------------------------------------------------

function openDetail(index: number, id: string): void {
  detail.hidden = false;
  detailHeading.textContent = t('Event {0}', table.cellText(index, 1));
  detailBody.replaceChildren(el('p', {}, t('Loading…')));
  detail.dataset['id'] = id;
  detail.dataset['person'] = table.cellText(index, 3);
  send({ type: 'open', id });
  detailHeading.focus();
}

function showDetail(id: string, value: EventDetail | undefined, error: string | undefined): void {
  if (detail.dataset['id'] !== id) {
    return;
  }
  if (!value) {
    detailBody.replaceChildren(el('p', { class: 'error', role: 'alert' }, error ?? t('The event could not be loaded.')));
    return;
  }
  const facts = el('dl', { class: 'facts' });
  const fact = (name: string, text: string) => facts.append(el('dt', {}, name), el('dd', {}, text));
  fact(t('ID'), value.id);
  fact(t('Event'), value.event);
  fact(t('Time'), value.timestamp);
  fact(t('Distinct ID'), value.distinctId);
  fact(t('Person'), detail.dataset['person'] ?? '');
  const copies = el('div', { class: 'actions' });
  const copy = (label: string, text: string) => {
    const copyButton = button(label, { secondary: true });
    copyButton.addEventListener('click', () => send({ type: 'copy', text }));
    copies.append(copyButton);
  };
  copy(t('Copy ID'), value.id);
  copy(t('Copy properties'), value.properties);
  copy(t('Copy event JSON'), value.raw);
  const block = (title: string, text: string) => {
    if (!text || text === 'null') return [];
    const headingId = `detail-${title.toLowerCase().replace(/\W+/g, '-')}`;
    return [el('h3', { id: headingId }, title), el('pre', { class: 'json', tabindex: 0, 'aria-labelledby': headingId }, text)];
  };
  detailBody.replaceChildren(
    facts,
    copies,
    ...(propertiesBlock(value.properties) ?? block(t('Properties'), value.properties)),
    ...block(t('Person'), value.person),
    ...block(t('Elements'), value.elements),
    ...block(t('Elements chain'), value.elementsChain),
  );
}

/** The properties as a tree with search and copy (the JSON as text when it does not parse). */
function propertiesBlock(properties: string): HTMLElement[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(properties);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object') return undefined;
  const title = el('h3', { id: 'detail-properties' }, 'Properties');
  return [title, propertyTree(parsed, TREE_TEXTS, (text) => send({ type: 'copy', text }))];
}

function hideDetail(): void {
  detail.hidden = true;
  delete detail.dataset['id'];
  table.focus();
}

// ---- state and messages ---------------------------------------------------------------------------------

function saveState(change: { filters?: FilterState; scrollTop?: number }): void {
  if (!projectInfo) {
    return;
  }
  const previous = PanelStateSchema.safeParse(vscode.getState());
  vscode.setState({
    connectionId: projectInfo.connectionId,
    projectId: projectInfo.id,
    projectName: projectInfo.name,
    filters: change.filters ?? (previous.success ? previous.data.filters : readForm()),
    scrollTop: change.scrollTop ?? (previous.success ? previous.data.scrollTop : 0),
  });
}

function onMessage(message: ExtensionMessage): void {
  switch (message.type) {
    case 'init':
      projectInfo = { connectionId: message.connectionId, id: message.project.id, name: message.project.name };
      heading.textContent = t('Events: {0}', message.project.name);
      document.title = heading.textContent;
      fillForm(message.filters);
      table.setLocale(message.locale);
      times = new TimeText(message.locale);
      pendingScrollTop = message.scrollTop;
      saveState({ filters: message.filters, scrollTop: message.scrollTop });
      return;
    case 'reset':
      generation = message.generation;
      table.reset(message.columns);
      live.reset();
      alertBox.textContent = '';
      showLine(waitLine, '');
      showLine(noteLine, '');
      rangeLine.textContent = rangeText(message.range);
      return;
    case 'rows':
      if (message.generation !== generation) return;
      table.append(message.start, message.rows, message.done);
      restoreScroll();
      status.textContent = message.done
        ? t('{0} events, all loaded', table.loaded.toLocaleString())
        : t('{0} events loaded; more load as you scroll', table.loaded.toLocaleString());
      return;
    case 'status':
      if (message.generation !== generation) return;
      table.setLoading(message.loading);
      ring.hidden = !message.loading;
      stop.toggleAttribute('disabled', !message.loading);
      if (message.loading && table.loaded === 0) status.textContent = t('Loading events…');
      if (message.error) alertBox.textContent = message.error;
      if (message.waiting !== undefined) showLine(waitLine, message.waiting);
      if (!message.loading) showLine(waitLine, '');
      if (message.note) showLine(noteLine, message.note);
      if (!message.loading && !message.error && table.loaded === 0 && table.isDone) status.textContent = t('No events match these filters.');
      return;
    case 'suggestions':
      showSuggestions(message);
      return;
    case 'detail':
      showDetail(message.id, message.detail, message.error);
      return;
    case 'liveRows':
      if (message.generation !== generation) return;
      live.rows(message);
      status.textContent = `${table.loaded.toLocaleString()} events`;
      return;
    case 'liveState':
      live.state(message);
      return;
    case 'liveGap':
      if (message.generation === generation) live.gap(message);
      return;
  }
}

function showLine(line: HTMLElement, text: string): void {
  line.textContent = text;
  line.hidden = !text;
}

/** "Events after Nov 22, 2026, 07:01:02" or "between … and …": the lower bound is always there. */
function rangeText(range: Extract<ExtensionMessage, { type: 'reset' }>['range']): string {
  if (!range?.after) {
    return '';
  }
  return range.before ? t('Events between {0} and {1}', times.at(range.after), times.at(range.before)) : t('Events after {0}', times.at(range.after));
}

/** After a reload: load down to the row the user was at, then scroll back there. */
function restoreScroll(): void {
  if (pendingScrollTop <= 0) {
    return;
  }
  const needed = table.rowsFor(pendingScrollTop);
  if (table.loaded >= needed || table.isDone) {
    table.scrollTo(pendingScrollTop);
    pendingScrollTop = 0;
  } else {
    send({ type: 'need', generation, upTo: needed });
  }
}

window.addEventListener('message', (event: MessageEvent) => {
  const parsed = parseExtensionMessage(event.data);
  if (parsed.ok) {
    onMessage(parsed.message);
  } else {
    console.warn(`Ignored a malformed message from the extension: ${parsed.problem}`);
  }
});

form.addEventListener('submit', (event) => {
  event.preventDefault();
  runQuery();
});
apply.addEventListener('click', () => runQuery());
form.addEventListener('keydown', (event) => {
  const target = event.target instanceof HTMLElement ? event.target.tagName : '';
  if (event.key === 'Enter' && (target === 'INPUT' || target === 'VSCODE-TEXTFIELD')) {
    event.preventDefault();
    runQuery();
  }
});
reset.addEventListener('click', () => {
  fillForm(defaultFilters());
  runQuery();
});
stop.addEventListener('click', () => send({ type: 'cancel' }));
exportCsv.addEventListener('click', () => send({ type: 'export', format: 'csv', filters: readForm() }));
exportJson.addEventListener('click', () => send({ type: 'export', format: 'json', filters: readForm() }));
exportJsonLines.addEventListener('click', () => send({ type: 'export', format: 'jsonl', filters: readForm() }));
addProperty.addEventListener('click', () => addPropertyRow());
closeDetail.addEventListener('click', hideDetail);
detail.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') hideDetail();
});

layout();
const saved = PanelStateSchema.safeParse(vscode.getState());
send(saved.success ? { type: 'ready', filters: saved.data.filters, scrollTop: saved.data.scrollTop } : { type: 'ready' });
