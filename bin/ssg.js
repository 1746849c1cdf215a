#!/usr/bin/env node
// The CLI is TypeScript; tsx compiles it on the fly (cached), so there is no build step before use.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
await main(process.argv);
