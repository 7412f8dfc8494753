// Tiny DOM helpers: elements are built with properties and text, never from strings of HTML
// (the only HTML inserted anywhere is markdown-it's output, which has raw HTML disabled).

type Props = { className?: string; title?: string; type?: string; dataset?: Record<string, string>; ariaLabel?: string };

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: (Node | string | undefined)[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props.className) element.className = props.className;
  if (props.title) element.title = props.title;
  if (props.type && element instanceof HTMLButtonElement) element.type = props.type as 'button';
  if (props.type && element instanceof HTMLInputElement) element.type = props.type;
  if (props.ariaLabel) element.setAttribute('aria-label', props.ariaLabel);
  for (const [key, value] of Object.entries(props.dataset ?? {})) element.dataset[key] = value;
  for (const child of children) if (child !== undefined) element.append(child);
  return element;
}

export function button(label: string, props: Props = {}): HTMLButtonElement {
  return el('button', { type: 'button', ...props }, label);
}

export function byId<T extends HTMLElement>(id: string, type: new () => T): T {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`#${id} is missing from the chat page`);
  return element;
}

/** A button showing a glyph; its tooltip and accessible name are the (localized) label. */
export function iconButton(glyph: string, label: string, props: Props = {}): HTMLButtonElement {
  const element = button(glyph, { ...props, title: props.title ?? label, ariaLabel: label, className: `${props.className ?? ''} icon`.trim() });
  return element;
}
