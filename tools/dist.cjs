// Loads the compiled API (dist/api) with the workspace's @hearth/* import paths resolved to compiled files.
const path = require('node:path');
const tsconfigPaths = require('tsconfig-paths');

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist/api');
tsconfigPaths.register({
  baseUrl: dist,
  paths: {
    '@hearth/contracts': ['libs/contracts/src/index'],
    '@hearth/domain/*': ['libs/domain/*/src/index'],
  },
});
require('reflect-metadata');

module.exports = {
  root,
  /** Requires a compiled module by its source path, e.g. requireDist('apps/api/src/runtime'). */
  requireDist: (sourcePath) => require(path.join(dist, sourcePath)),
};
