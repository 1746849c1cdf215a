// An SVG imported `with { type: 'text' }` is its markup, as a string (esbuild's text loader).
declare module '*.svg' {
  const markup: string;
  export default markup;
}
