// Workspace or server text shown for a person to judge (a confirmation of what will run and be sent):
// control, invisible and bidirectional characters are written as \u{…}, a long run of blanks is counted
// (nothing can hide past the edge of a dialog), and a value that is cut says how much was left out
// (docs/security.md "Workspace content is untrusted").

/** Characters that would hide or reorder what follows: C0/C1 controls, bidi controls, zero-width marks. */
const HIDDEN = /^[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb]$/;

/** `value` as shown in a confirmation: hidden characters escaped, runs of 4+ blanks counted, at most `max` characters. One pass. */
export function shownValue(value: string, max = 200): string {
  // Stops once more than `max` characters are out: each input character is looked at once at most.
  const parts: string[] = [];
  let length = 0;
  let index = 0;
  while (index < value.length && length <= max) {
    const char = value[index]!;
    if (char === ' ' || char === '\t') {
      let run = index + 1;
      while (run < value.length && (value[run] === ' ' || value[run] === '\t')) run++;
      parts.push(run - index >= 4 ? ` ⟨${run - index} blanks⟩ ` : value.slice(index, run));
      length += parts[parts.length - 1]!.length;
      index = run;
    } else {
      const shown = HIDDEN.test(char) ? `\\u{${char.charCodeAt(0).toString(16)}}` : char;
      parts.push(shown);
      length += shown.length;
      index++;
    }
  }
  const visible = parts.join('');
  const rest = value.length - index;
  if (visible.length <= max && rest === 0) return visible;
  return `${visible.slice(0, max)}… (+${Math.max(0, visible.length - max) + rest})`;
}
