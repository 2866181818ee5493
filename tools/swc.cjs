// The one swc configuration for TypeScript: the API build (tools/build.mjs) and Jest (jest.config.js) both use it, so
// the code the tests run is compiled as the code the service runs. Decorators are TypeScript's legacy ones with
// emitted type metadata, as NestJS and TypeORM read it.
module.exports = {
  swcOptions: {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
};
