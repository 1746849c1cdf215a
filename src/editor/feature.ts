// The content editor as a feature (the contract in features/contract.ts): `defineSite({ editor })`
// turns it on. Its files go beside the site files at /admin; in dev it serves its configuration
// with the local backend.
import type { Feature } from '../features/contract.ts';
import type { EditorOptions } from '../render/site-definition.ts';
import { EDITOR_PATH } from './editor-config.ts';
import { editorFiles, editorHeaders, editorOrigins } from './editor-files.ts';
import { createDevEditor } from './dev-backend.ts';

export const editorFeature: Feature = {
  option: 'editor',
  turnOn(value) {
    const options = value as EditorOptions;
    return {
      feature: editorFeature,
      files(input) {
        const dataFiles = input.dataSources
          .filter((file) => input.schemas[file.name] !== undefined)
          .map((file) => ({ name: file.name, file: file.file, schema: input.schemas[file.name] }));
        const collections = input.collections.filter((collection) => collection.type === 'content');
        const files = editorFiles(input.project, options, dataFiles, {
          baseUrl: input.baseUrl,
          name: input.siteName,
          warn: input.warn,
          collections,
        });
        const headers = editorHeaders(input.headers, editorOrigins(options));
        return { files, folderHeaders: { path: EDITOR_PATH, headers } };
      },
    };
  },
  devSession: createDevEditor,
};
