import { benchApiOverhead } from './api-overhead';
import { benchArtistSearch } from './artist-search';
import { benchDonationFulfilment } from './donation-fulfilment';
import { benchDownloadFormats } from './download-formats';
import { benchFirstLoadBytes } from './first-load-bytes';
import { benchFootprint } from './footprint';
import { benchFundraiserSearch } from './fundraiser-search';
import { benchInsight } from './insight';
import { benchLandingThroughput } from './landing-throughput';
import { benchLighthouse } from './lighthouse';
import { benchListenersLoad } from './listeners-load';
import { benchOfflinePlayback } from './offline-playback';
import { benchRangeThroughput } from './range-throughput';
import { benchSearchAtScale } from './search-at-scale';
import { benchTransactionsCsv } from './transactions-csv';
import { benchUploadMemory } from './upload-memory';
import { benchZipMemory } from './zip-memory';

// `npm run bench`: each benchmark prints its figures and a ratio against a baseline measured in
// the same run, so results compare across machines. Figures, not pass/fail: see the README.
console.log(`Node ${process.version}, ${process.platform}/${process.arch}`);
await benchApiOverhead();
await benchLandingThroughput();
await benchListenersLoad();
// Memory first, while this process (which serves them) is small: the search benchmarks leave a
// large heap behind whose collection would blur a growth of a few megabytes.
await benchUploadMemory();
await benchZipMemory();
await benchDownloadFormats();
await benchRangeThroughput();
await benchArtistSearch();
await benchFundraiserSearch();
await benchSearchAtScale();
await benchDonationFulfilment();
await benchTransactionsCsv();
await benchInsight();
await benchOfflinePlayback();
await benchFirstLoadBytes();
await benchLighthouse();
await benchFootprint();
