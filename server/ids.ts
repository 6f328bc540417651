import { randomInt } from "node:crypto";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
const RANDOM_LENGTH = 10;

/**
 * Ids as the spec describes them: a prefix, a timestamp and a random string, e.g.
 * `chapter-1732170000000-k3j9x0q2ab`. Made on the server, never taken from a client.
 * The random part (36^10 ≈ 3.7e15) keeps ids made in the same millisecond apart.
 */
export function newId(prefix: string): string {
  if (!/^[a-z][a-z0-9_]*$/.test(prefix)) throw new Error(`Invalid id prefix: ${prefix}`);
  let random = "";
  for (let index = 0; index < RANDOM_LENGTH; index++) random += ALPHABET[randomInt(ALPHABET.length)];
  return `${prefix}-${Date.now()}-${random}`;
}
