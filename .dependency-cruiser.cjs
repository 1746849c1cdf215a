// The generator's layers, checked by `npm run layers` and by tests/layers.test.ts (part of `npm test`). A folder of `src/` may
// import its own layer (without a cycle between folders) and the layers below it, never above:
//
//   cli                                      the commands; bin/ssg.js only calls it
//   dev, server                              dev mode; the production server
//   pipeline                                 the stages of a build, in order
//   cards, search, editor, inbox             the optional features (drawn files, search and the editor
//                                            behind the pipeline's contract; the contact inbox, for the server)
//   pool                                     the helper processes that convert and draw
//   content, mdx, cache, bundle, images,     the stages' own work; features/ holds the contract
//   render, output, features                 the pipeline calls the optional features through
//   runtime                                  the code shipped to browsers (imports nothing)
//   base, errors, project.ts                 what everything may use
//
// Nothing in src/ imports bin/ or site/ (the engine never names the company's site). Type-only
// imports count: a type is part of the contract between layers.

const folders = (...names) => `^src/(${names.join('|')})/`;
/** The optional features' folders: each behind the contract, known only to the list of features. */
const FEATURE_FOLDERS = folders('cards', 'search', 'editor');
const LAYERS = [
  { name: 'cli', path: folders('cli') },
  { name: 'dev and server', path: folders('dev', 'server') },
  { name: 'pipeline', path: folders('pipeline') },
  { name: 'optional features', path: folders('cards', 'search', 'editor', 'inbox') },
  { name: 'pool', path: folders('pool') },
  { name: 'stages', path: folders('content', 'mdx', 'cache', 'bundle', 'images', 'render', 'output', 'features') },
  { name: 'runtime', path: folders('runtime') },
];

/** For each layer, a rule forbidding imports of every layer above it. */
const upward = LAYERS.slice(1).map((layer, index) => ({
  name: `no-upward-from-${layer.name.replace(/ /g, '-')}`,
  comment: `${layer.name} may not import a layer above it (${LAYERS.slice(0, index + 1)
    .map((above) => above.name)
    .join(', ')}).`,
  severity: 'error',
  from: { path: layer.path },
  to: {
    path: LAYERS.slice(0, index + 1)
      .map((above) => above.path)
      .join('|'),
  },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'no-upward-from-the-base',
      comment: 'src/base/, src/errors/ and src/project.ts are the bottom layer: they import no other folder of src/.',
      severity: 'error',
      from: { path: '^src/(base/|errors/|project\\.ts$)' },
      to: { path: '^src/[^/]+/', pathNot: '^src/(base|errors)/' },
    },
    {
      name: 'features-only-through-their-list',
      comment:
        'An optional feature is called through its contract (src/features/contract.ts): only the list of features (src/pipeline/features.ts) and what the package exports to sites (src/index.ts) import its folder.',
      severity: 'error',
      from: { path: '^src/', pathNot: `^src/(pipeline/features\\.ts|index\\.ts)$|${FEATURE_FOLDERS}` },
      to: { path: FEATURE_FOLDERS },
    },
    {
      name: 'no-bin-or-site-from-src',
      comment: 'The engine never imports the CLI entry (bin/) or the site it builds (site/).',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(bin|site)/' },
    },
    {
      name: 'bin-calls-only-the-cli',
      comment: 'bin/ starts the CLI (compiled in lib/, or its sources in src/cli/) and nothing else.',
      severity: 'error',
      from: { path: '^bin/' },
      to: { path: '^src/', pathNot: '^src/cli/' },
    },
    {
      name: 'no-folder-cycles',
      comment: 'No cycle between the folders of src/, in a layer or across.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-module-cycles',
      comment: 'No cycle between modules.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    includeOnly: '^(src|bin|site)/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js'],
    },
  },
};
