import { dictionary } from '@zxcvbn-ts/language-common';

// Passwords attackers try first (issue 9): the ~49,000 most common ones from leaked lists, as
// zxcvbn-ts bundles them. Our character rules alone let "P@ssw0rd1" through; this catches it, and
// a common word merely dressed up with capitals, look-alike symbols or digits and symbols around
// it ("Summer2024!", "Dr@gon!!1"). NIST SP 800-63B section 5.1.1.2 asks for exactly this check.

const common = new Set(dictionary['passwords-common'].map((password) => password.toLowerCase()));

/** Look-alike characters people swap in for letters, each with the letters it may stand for. */
const LOOK_ALIKES: Record<string, string[]> = {
  '@': ['a'],
  '4': ['a'],
  '8': ['b'],
  '(': ['c'],
  '3': ['e'],
  '6': ['g'],
  '9': ['g'],
  '1': ['i', 'l'],
  '!': ['i', 'l'],
  '|': ['i', 'l'],
  '0': ['o'],
  $: ['s'],
  '5': ['s'],
  '7': ['t'],
  '+': ['t'],
  '2': ['z'],
};

/** Every reading of the look-alikes in `text` (capped: a long password has too many, and is not one of these). */
function readings(text: string): string[] {
  let results = [''];
  for (const char of text) {
    const options = [char, ...(LOOK_ALIKES[char] ?? [])];
    results = results.flatMap((prefix) => options.map((option) => prefix + option));
    if (results.length > 256) return [text];
  }
  return results;
}

/** The word inside: digits and symbols around it trimmed ("!!summer2024!" → "summer"). */
const core = (text: string) => text.replace(/^[^a-z]+|[^a-z]+$/g, '');

export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  if (common.has(lower) || common.has(core(lower))) return true;
  return readings(lower).some((reading) => common.has(reading) || common.has(core(reading)));
}
