// Search as a feature (the contract in features/contract.ts): `defineSite({ search })` turns it on.
import type { Feature } from '../features/contract.ts';
import { checkSearch, SEARCH_BUNDLE_URL, searchHeader } from './search.ts';
import { searchCache, searchRun, stopIndexing, type SearchOutput } from './search-index.ts';

export const searchFeature: Feature<SearchOutput> = {
  option: 'search',
  turnOn(value, site) {
    const search = checkSearch(value, site.routes, site.siteFile)!;
    return {
      feature: searchFeature,
      header: (jobs, headers) => searchHeader(search, jobs, headers),
      run: (input) => searchRun(search, input),
    };
  },
  cache: searchCache,
  dev: { askedUnder: SEARCH_BUNDLE_URL, stop: stopIndexing },
};
