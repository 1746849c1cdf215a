// What `ssg` means inside the browser bundle: the same names, without the server renderer.
export { defineSite } from './render/site-definition.ts';
export { island } from './runtime/island-client.ts';
