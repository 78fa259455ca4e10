/**
 * The hash of a term's characters (FNV-1a over UTF-16 code units), shared by the term
 * dictionary and the tokenizer's ASCII fast path, which hashes each word as it finds it so that
 * indexing reads a word's characters once.
 */
export const TERM_HASH_SEED = 0x811c9dc5;
export const TERM_HASH_PRIME = 16777619;

export function termHash(s: string): number {
  let h = TERM_HASH_SEED;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), TERM_HASH_PRIME);
  return h | 0;
}
