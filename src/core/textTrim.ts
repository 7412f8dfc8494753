// Trimming a repeated character off the ends of a string in one pass. The regex forms (/\/+$/,
// /^-+|-+$/g) restart at every character of a long run and take quadratic time on text such as
// "////…/x", which a pasted URL or a model's tool arguments can hold.

/** `text` without the `char`s at its end. */
export function trimEnd(text: string, char: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === char) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** `text` without the `char`s at both ends. */
export function trimBoth(text: string, char: string): string {
  let start = 0;
  while (start < text.length && text[start] === char) start++;
  return trimEnd(text.slice(start), char);
}
