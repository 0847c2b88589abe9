/// <reference lib="dom" />
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { MAX_RENDERED_ROWS } from '../../../src/webview/shared/virtualRange';
import { ROW_HEIGHT, WindowedRows } from '../../../src/webview/shared/windowedRows';

/** The little of the DOM the windowed rows use: elements in a tree, attributes, styles, sizes. */
class FakeElement {
  readonly attributes = new Map<string, string>();
  readonly children: FakeElement[] = [];
  parent: FakeElement | undefined;
  readonly style: Record<string, string> = {};
  textContent = '';
  scrollTop = 0;
  clientHeight = 0;
  offsetHeight = 0;

  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }

  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null;
  }

  append(...nodes: FakeElement[]): void {
    for (const node of nodes) {
      node.parent = this;
      this.children.push(node);
    }
  }

  remove(): void {
    this.parent?.children.splice(this.parent.children.indexOf(this), 1);
    this.parent = undefined;
  }

  addEventListener(): void {}
}

let frames: (() => void)[] = [];
Object.assign(globalThis, {
  document: { createElement: () => new FakeElement() },
  requestAnimationFrame: (run: () => void) => frames.push(run),
  ResizeObserver: class {
    observe(): void {}
  },
});

/** Rows that only say their index: the windowing on its own. */
class Rows extends WindowedRows {
  loaded = 0;
  created = 0;

  constructor() {
    super('Rows');
    this.view.clientHeight = 480;
    (this.header as unknown as FakeElement).offsetHeight = ROW_HEIGHT;
  }

  get view(): FakeElement {
    return this.element as unknown as FakeElement;
  }

  get rowsBody(): FakeElement {
    return this.view.children[1]!;
  }

  row(index: number): FakeElement | undefined {
    return this.rendered.get(index) as unknown as FakeElement | undefined;
  }

  show(count: number, complete = true): void {
    this.loaded = count;
    this.complete = complete;
    this.render();
  }

  override schedule(): void {
    super.schedule();
  }

  override reveal(index: number): void {
    super.reveal(index);
  }

  protected createRow(index: number): HTMLElement {
    this.created++;
    const row = new FakeElement();
    row.setAttribute('data-index', String(index));
    return row as unknown as HTMLElement;
  }

  protected onKey(): void {}

  protected onClick(): void {}
}

describe('windowed rows', () => {
  let rows: Rows;
  beforeEach(() => {
    frames = [];
    rows = new Rows();
  });

  test('only the rows in range are in the DOM, each at its place, in a body sized for all of them', () => {
    rows.show(100_000);
    // 456 px under the header: rows 0 to 19 seen, 20 more below.
    assert.equal(rows.rowsBody.children.length, 40);
    assert.equal(rows.rowsBody.style['height'], `${100_000 * ROW_HEIGHT}px`);
    assert.equal(rows.row(39)!.style['transform'], `translateY(${39 * ROW_HEIGHT}px)`);
    assert.equal(rows.view.getAttribute('aria-rowcount'), '100001');
    rows.show(100_000, false);
    assert.equal(rows.view.getAttribute('aria-rowcount'), '-1', 'unknown until every row is there');
  });

  test('scrolling keeps the rows still in range and takes the others out of the DOM', () => {
    rows.show(100_000);
    const kept = rows.row(30)!;
    const gone = rows.row(0)!;
    const created = rows.created;
    rows.view.scrollTop = 25 * ROW_HEIGHT;
    rows.show(100_000);
    assert.equal(rows.row(30), kept);
    assert.equal(gone.parent, undefined);
    assert.equal(rows.row(0), undefined);
    assert.equal(rows.created - created, 25, 'only the rows that came into range are made');
  });

  test(`never more than ${MAX_RENDERED_ROWS} rows, however tall the view`, () => {
    rows.view.clientHeight = 20_000;
    rows.view.scrollTop = 50_000 * ROW_HEIGHT;
    rows.show(100_000);
    assert.equal(rows.rowsBody.children.length, MAX_RENDERED_ROWS);
  });

  test('renders once on the next frame, however often it is asked before', () => {
    rows.loaded = 10;
    rows.schedule();
    rows.schedule();
    rows.schedule();
    assert.equal(frames.length, 1);
    assert.equal(rows.rowsBody.children.length, 0);
    frames.shift()!();
    assert.equal(rows.rowsBody.children.length, 10);
    rows.schedule();
    assert.equal(frames.length, 1, 'a later ask gets a frame of its own');
  });

  test('revealing a row scrolls as little as needed', () => {
    rows.show(1_000);
    rows.reveal(100);
    assert.equal(rows.view.scrollTop, 101 * ROW_HEIGHT - 456, 'a row below: at the bottom of the view');
    rows.reveal(50);
    assert.equal(rows.view.scrollTop, 50 * ROW_HEIGHT, 'a row above: at the top');
    rows.reveal(55);
    assert.equal(rows.view.scrollTop, 50 * ROW_HEIGHT, 'a row in view: no scroll');
  });
});
