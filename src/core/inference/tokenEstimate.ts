// A token count estimate for models whose tokenizers are not available offline (the platform's families
// are DeepSeek, Qwen and MiniMax, each with its own BPE vocabulary; no well-kept JavaScript library ships
// all three). Rule: CJK characters count one token each (their BPEs mostly map a Han character to about
// one token), every other run of text about one token per four characters, rounded up, plus a few tokens
// of framing per message. It errs high for English prose, which keeps prompts inside the context limit.
// One pass over the text: linear time, no allocation per character.

/** Tokens of framing (role markers, separators) counted once per message. */
export const TOKENS_PER_MESSAGE = 4;

function isWide(code: number): boolean {
  return (
    (code >= 0x3040 && code <= 0x30ff) || // kana
    (code >= 0x3400 && code <= 0x4dbf) || // CJK extension A
    (code >= 0x4e00 && code <= 0x9fff) || // CJK unified ideographs
    (code >= 0xac00 && code <= 0xd7af) || // Hangul
    (code >= 0xf900 && code <= 0xfaff) || // CJK compatibility
    (code >= 0xff00 && code <= 0xffef) // full-width forms
  );
}

export function estimateTokens(text: string): number {
  let wide = 0;
  let other = 0;
  for (let index = 0; index < text.length; index++) {
    if (isWide(text.charCodeAt(index))) wide++;
    else other++;
  }
  return wide + Math.ceil(other / 4);
}
