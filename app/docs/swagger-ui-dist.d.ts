// swagger-ui-dist ships no types. Its bundler build (React and every dependency inlined) exports the SwaggerUI
// constructor; only the options app/docs/reference.tsx passes are typed here.
declare module "swagger-ui-dist/swagger-ui-es-bundle.js" {
  const SwaggerUI: (options: { domNode: HTMLElement; url: string; [option: string]: unknown }) => unknown;
  export default SwaggerUI;
}
