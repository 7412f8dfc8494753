// Server or volume text (file names, volume names) shown as a QuickPick label. VS Code renders "$(name)"
// in a label as an icon, so it is escaped ("\$(name)" shows as typed); control and bidi characters are
// dropped and the text is cut to a bounded length. Kept free of `vscode` so plain unit tests check it.

const CONTROLS = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** `text` safe as a label: icons escaped, one line, at most `max` characters. */
export function pickText(text: string, max = 120): string {
  const line = text.replace(CONTROLS, ' ');
  const cut = line.length > max ? `${line.slice(0, max - 1)}…` : line;
  return cut.replace(/\$\(/g, '\\$(');
}
