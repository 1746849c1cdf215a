// The files the site draws (share cards) as a feature (the contract in features/contract.ts):
// `defineSite({ files })` turns it on, with the `drawers` that files() names.
import type { Feature } from '../features/contract.ts';
import { drawnFilesRun, type Drawn } from './drawn-files.ts';

export const drawnFilesFeature: Feature<Drawn> = {
  option: 'files',
  // Its shape (a function) is checked with every option; what it lists is checked as it is drawn.
  turnOn: () => ({ feature: drawnFilesFeature, run: drawnFilesRun }),
};
