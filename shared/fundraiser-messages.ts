import { fundraiserLimits } from './constants';

/** The fundraiser rules' messages (spec part 2 sections 4, 5 and 8). */
export const fundraiserMessages = {
  chooseArtistAndCharity: 'Unable to save project. Please choose an artist and charity first',
  atLeastOneTrack: 'Must include at least one track name',
  tooManyTracks: `A project may have no more than ${fundraiserLimits.tracksMax} tracks.`,
  wholeDollars: 'Donation minimum must be a whole dollar amount (no cents)',
  nonprofitRequired: 'Nonprofit is required',
  nonprofitInvalid: 'Nonprofit is not valid',
  minimumDonationHint: 'Must be $2 or more',
  notPublishable: 'This fundraiser is not ready to publish yet. Please add the details and music first.',
  artistMustBePublished: 'The artist of this fundraiser is a draft: publish both, or publish the artist first.',
  finishArtistFirst: 'Please finish creating the artist before publishing this fundraiser.',
  onlyDraftsEditable: 'Only draft fundraisers can be edited. Please contact us to change a published one.',
  onlyAdminsChangeCharity: 'The charity of a published fundraiser can only be changed by an admin.',
  notFound: 'Fundraiser not found.',
  albumZipRequired: 'Album zip is required.',
} as const;
