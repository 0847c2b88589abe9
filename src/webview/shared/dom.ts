/// <reference lib="dom" />
// Small DOM helpers for the webviews. Text goes in as text (textContent), never as markup.

type Attributes = Record<string, string | number | boolean | undefined>;

/** Creates an element with attributes and, optionally, text content. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attributes?: Attributes, text?: string): HTMLElementTagNameMap[K];
export function el(tag: string, attributes?: Attributes, text?: string): HTMLElement;
export function el(tag: string, attributes: Attributes = {}, text?: string): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) {
      continue;
    }
    element.setAttribute(name, value === true ? '' : String(value));
  }
  if (text !== undefined) {
    element.textContent = text;
  }
  return element;
}

/** A @vscode-elements form control: all of them carry a string `value`. */
export type ValueElement = HTMLElement & { value: string };

export function control(tag: 'vscode-textfield' | 'vscode-textarea' | 'vscode-single-select', attributes: Attributes = {}): ValueElement {
  return el(tag, attributes) as ValueElement;
}

export function button(label: string, attributes: Attributes = {}): HTMLElement {
  return el('vscode-button', attributes, label);
}

export function debounce<A extends unknown[]>(run: (...args: A) => void, ms: number): (...args: A) => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (...args: A) => {
    clearTimeout(timer);
    timer = setTimeout(() => run(...args), ms);
  };
}
