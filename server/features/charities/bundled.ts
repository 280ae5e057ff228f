// Well-known US 501(c)(3) charities with their EINs, so the directory works with no import and no
// network (DESIGN.md section 2). Operators import the IRS Business Master File for the rest.

export type BundledCharity = {
  ein: string;
  name: string;
  city: string;
  state: string;
  websiteUrl: string;
  tags: string[];
};

export const BUNDLED_CHARITIES: BundledCharity[] = [
  {
    ein: '530196605',
    name: 'American National Red Cross',
    city: 'Washington',
    state: 'DC',
    websiteUrl: 'https://www.redcross.org',
    tags: ['disaster relief', 'health'],
  },
  {
    ein: '131788491',
    name: 'American Cancer Society',
    city: 'Atlanta',
    state: 'GA',
    websiteUrl: 'https://www.cancer.org',
    tags: ['health', 'cancer'],
  },
  {
    // The HRC Foundation is the Human Rights Campaign's 501(c)(3); the campaign itself is a (c)(4).
    ein: '521481896',
    name: 'Human Rights Campaign Foundation',
    city: 'Washington',
    state: 'DC',
    websiteUrl: 'https://www.hrc.org',
    tags: ['civil rights', 'lgbtq'],
  },
  {
    ein: '131760110',
    name: 'U.S. Fund for UNICEF (UNICEF USA)',
    city: 'New York',
    state: 'NY',
    websiteUrl: 'https://www.unicefusa.org',
    tags: ['children', 'humanitarian'],
  },
  {
    ein: '133433452',
    name: 'Doctors Without Borders USA',
    city: 'New York',
    state: 'NY',
    websiteUrl: 'https://www.doctorswithoutborders.org',
    tags: ['health', 'humanitarian'],
  },
  {
    ein: '620646012',
    name: "ALSAC / St. Jude Children's Research Hospital",
    city: 'Memphis',
    state: 'TN',
    websiteUrl: 'https://www.stjude.org',
    tags: ['children', 'health', 'cancer'],
  },
  {
    ein: '363673599',
    name: 'Feeding America',
    city: 'Chicago',
    state: 'IL',
    websiteUrl: 'https://www.feedingamerica.org',
    tags: ['hunger'],
  },
  {
    ein: '911914868',
    name: 'Habitat for Humanity International',
    city: 'Americus',
    state: 'GA',
    websiteUrl: 'https://www.habitat.org',
    tags: ['housing'],
  },
  {
    ein: '530242652',
    name: 'The Nature Conservancy',
    city: 'Arlington',
    state: 'VA',
    websiteUrl: 'https://www.nature.org',
    tags: ['environment', 'conservation'],
  },
  {
    ein: '521693387',
    name: 'World Wildlife Fund',
    city: 'Washington',
    state: 'DC',
    websiteUrl: 'https://www.worldwildlife.org',
    tags: ['environment', 'animals'],
  },
  {
    ein: '136213516',
    name: 'American Civil Liberties Union Foundation',
    city: 'New York',
    state: 'NY',
    websiteUrl: 'https://www.aclu.org',
    tags: ['civil rights'],
  },
  {
    ein: '060726487',
    name: 'Save the Children Federation',
    city: 'Fairfield',
    state: 'CT',
    websiteUrl: 'https://www.savethechildren.org',
    tags: ['children', 'humanitarian'],
  },
  {
    ein: '951831116',
    name: 'Direct Relief',
    city: 'Santa Barbara',
    state: 'CA',
    websiteUrl: 'https://www.directrelief.org',
    tags: ['health', 'disaster relief'],
  },
  {
    ein: '135562976',
    name: 'Boys & Girls Clubs of America',
    city: 'Atlanta',
    state: 'GA',
    websiteUrl: 'https://www.bgca.org',
    tags: ['children', 'education'],
  },
  {
    ein: '200049703',
    name: 'Wikimedia Foundation',
    city: 'San Francisco',
    state: 'CA',
    websiteUrl: 'https://wikimediafoundation.org',
    tags: ['education'],
  },
  {
    ein: '043091431',
    name: 'Electronic Frontier Foundation',
    city: 'San Francisco',
    state: 'CA',
    websiteUrl: 'https://www.eff.org',
    tags: ['civil rights', 'technology'],
  },
  {
    ein: '223936753',
    name: 'charity: water',
    city: 'New York',
    state: 'NY',
    websiteUrl: 'https://www.charitywater.org',
    tags: ['water', 'health'],
  },
];

/**
 * The home page's featured charities until an admin picks others (spec part 2 section 2: ten
 * logos; its presets include the American Cancer Society, HRC, the Red Cross and UNICEF USA).
 * Stand Up To Cancer, also among them, is not bundled: its EIN could not be confirmed here.
 */
export const DEFAULT_FEATURED_EINS = [
  '131788491', // American Cancer Society
  '521481896', // Human Rights Campaign Foundation
  '530196605', // American National Red Cross
  '131760110', // UNICEF USA
  '620646012', // St. Jude
  '133433452', // Doctors Without Borders USA
  '363673599', // Feeding America
  '521693387', // World Wildlife Fund
  '911914868', // Habitat for Humanity
  '223936753', // charity: water
];
