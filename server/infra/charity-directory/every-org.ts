import { z } from 'zod';

// Every.org's public nonprofit API (https://docs.every.org, "partners" v0.2), the charity
// directory's remote source when EVERY_ORG_API_KEY is set (DESIGN.md section 2). Its answers are
// third-party input: parsed with zod, URLs kept only when http(s) (they end up in links and image
// sources), hits without a 9-digit EIN dropped (a fundraiser needs a US EIN).

/** One charity as the directory stores it: EIN as 9 digits, city and state split out. */
export type DirectoryCharity = {
  ein: string;
  name: string;
  city: string;
  state: string;
  websiteUrl: string | null;
  logoUrl: string | null;
  tags: string[];
};

export interface EveryOrgClient {
  /** Up to 20 charities matching the words of `query`. */
  search(query: string): Promise<DirectoryCharity[]>;
  /** The charity with this 9-digit EIN, or null when Every.org does not know it. */
  lookup(ein: string): Promise<DirectoryCharity | null>;
}

export class EveryOrgError extends Error {
  override name = 'EveryOrgError';
}

const text = z.string().nullish();

/** GET /search/{query}: `{ nonprofits: [...] }`; each hit is parsed on its own so one odd hit costs only itself. */
const searchAnswerSchema = z.object({ nonprofits: z.array(z.unknown()) });
const searchHitSchema = z.object({
  ein: text,
  name: z.string(),
  location: text,
  logoUrl: text,
  websiteUrl: text,
  tags: z.array(z.string()).nullish(),
});

/** GET /nonprofit/{ein}: `{ data: { nonprofit, nonprofitTags } }`. */
const lookupAnswerSchema = z.object({
  data: z.object({
    nonprofit: z.object({
      ein: text,
      name: z.string(),
      locationAddress: text,
      logoUrl: text,
      websiteUrl: text,
    }),
    nonprofitTags: z.array(z.object({ tagName: z.string() })).nullish(),
  }),
});

// prettier-ignore
const US_STATES: Record<string, string> = {
  alabama: 'AL', alaska: 'AK', arizona: 'AZ', arkansas: 'AR', california: 'CA', colorado: 'CO',
  connecticut: 'CT', delaware: 'DE', 'district of columbia': 'DC', florida: 'FL', georgia: 'GA',
  hawaii: 'HI', idaho: 'ID', illinois: 'IL', indiana: 'IN', iowa: 'IA', kansas: 'KS', kentucky: 'KY',
  louisiana: 'LA', maine: 'ME', maryland: 'MD', massachusetts: 'MA', michigan: 'MI', minnesota: 'MN',
  mississippi: 'MS', missouri: 'MO', montana: 'MT', nebraska: 'NE', nevada: 'NV', 'new hampshire': 'NH',
  'new jersey': 'NJ', 'new mexico': 'NM', 'new york': 'NY', 'north carolina': 'NC', 'north dakota': 'ND',
  ohio: 'OH', oklahoma: 'OK', oregon: 'OR', pennsylvania: 'PA', 'puerto rico': 'PR', 'rhode island': 'RI',
  'south carolina': 'SC', 'south dakota': 'SD', tennessee: 'TN', texas: 'TX', utah: 'UT', vermont: 'VT',
  virginia: 'VA', washington: 'WA', 'west virginia': 'WV', wisconsin: 'WI', wyoming: 'WY',
};
const STATE_CODES = new Set(Object.values(US_STATES));

/**
 * Every.org writes locations several ways: "New York, NY", "ST LOUIS, MO", "New York, NY, USA",
 * "WASHINGTON, District of Columbia, 20036-1653 United States". City is the first part (capitals
 * made readable), state the second as a postal code when it is a US state.
 */
export function parseLocation(location: string | null | undefined): { city: string; state: string } {
  const [rawCity = '', rawState = ''] = (location ?? '').split(',').map((part) => part.trim());
  const city =
    rawCity === rawCity.toUpperCase()
      ? rawCity
          .toLowerCase()
          .replace(/(^|[\s-])(\p{L})/gu, (_, space: string, letter: string) => space + letter.toUpperCase())
      : rawCity;
  const code = rawState.split(/\s+/)[0]?.toUpperCase() ?? '';
  const state = STATE_CODES.has(code) ? code : (US_STATES[rawState.toLowerCase()] ?? '');
  return { city, state };
}

const httpUrl = (value: string | null | undefined) =>
  value && /^https?:\/\/\S+$/i.test(value.trim()) ? value.trim() : null;

/** Every.org tag names are slugs ("food-security"); the directory keeps words ("food security"). */
const tagWords = (tagName: string) => tagName.trim().replace(/-+/g, ' ');

function toCharity(
  hit: { ein?: string | null; name: string; logoUrl?: string | null; websiteUrl?: string | null },
  location: string | null | undefined,
  tagNames: string[],
): DirectoryCharity | null {
  const ein = (hit.ein ?? '').replace(/\D/g, '');
  const name = hit.name.trim().slice(0, 1000);
  if (ein.length !== 9 || !name) return null;
  return {
    ein,
    name,
    ...parseLocation(location),
    websiteUrl: httpUrl(hit.websiteUrl),
    logoUrl: httpUrl(hit.logoUrl),
    tags: [...new Set(tagNames.map(tagWords).filter(Boolean))],
  };
}

type Options = { apiUrl: string; apiKey: string; timeoutMs?: number };

export function everyOrgClient({ apiUrl, apiKey, timeoutMs = 4000 }: Options): EveryOrgClient {
  /** The JSON answer, null on 404; anything else unexpected (status, timeout, network) throws. */
  async function get(pathname: string, params: Record<string, string> = {}): Promise<unknown> {
    const url = new URL(`${apiUrl}/${pathname}`);
    url.search = new URLSearchParams({ apiKey, ...params }).toString();
    let response: Response;
    try {
      response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      // Rewritten without the URL, which carries the API key, so the key never reaches the logs.
      throw new EveryOrgError(`Every.org did not answer: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (response.status === 404) return null;
    if (!response.ok) throw new EveryOrgError(`Every.org answered ${response.status}`);
    try {
      return await response.json();
    } catch {
      throw new EveryOrgError('Every.org answered with something that is not JSON');
    }
  }

  function parse<T extends z.ZodType>(schema: T, answer: unknown): z.infer<T> {
    const result = schema.safeParse(answer);
    if (!result.success) throw new EveryOrgError(`Every.org answered in an unexpected shape: ${result.error.message}`);
    return result.data;
  }

  return {
    async search(query) {
      const answer = await get(`search/${encodeURIComponent(query)}`, { take: '20' });
      if (answer === null) return [];
      return parse(searchAnswerSchema, answer)
        .nonprofits.flatMap((raw) => {
          const hit = searchHitSchema.safeParse(raw);
          return hit.success ? [toCharity(hit.data, hit.data.location, hit.data.tags ?? [])] : [];
        })
        .filter((charity) => charity !== null)
        .slice(0, 20);
    },

    async lookup(ein) {
      const answer = await get(`nonprofit/${encodeURIComponent(ein)}`);
      if (answer === null) return null;
      const { nonprofit, nonprofitTags } = parse(lookupAnswerSchema, answer).data;
      const charity = toCharity(
        nonprofit,
        nonprofit.locationAddress,
        (nonprofitTags ?? []).map((tag) => tag.tagName),
      );
      // Every.org also resolves slugs and ids; only an answer for the EIN asked about will do.
      return charity?.ein === ein ? charity : null;
    },
  };
}
