// Counting and cutting text by code points (what a person sees as characters, emoji included) without
// spreading it into an array: a text from the chain can be 300 KB, and `Array.from` on it builds 300,000
// strings for the sake of a count and a prefix.

/** The UTF-16 index just after the code point that starts at `at` (a lone surrogate is one code point). */
function after(text: string, at: number): number {
  const unit = text.charCodeAt(at);
  if (unit >= 0xd800 && unit <= 0xdbff && at + 1 < text.length) {
    const next = text.charCodeAt(at + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return at + 2;
  }
  return at + 1;
}

/** The UTF-16 index where the first `count` code points of `text` end (its length when it has no more). */
export function codePointEnd(text: string, count: number): number {
  let at = 0;
  for (let seen = 0; seen < count && at < text.length; seen++) at = after(text, at);
  return at;
}

/** How many code points `text` has, as `Array.from(text).length` counts them. */
export function codePointCount(text: string): number {
  let count = 0;
  for (let at = 0; at < text.length; count++) at = after(text, at);
  return count;
}
