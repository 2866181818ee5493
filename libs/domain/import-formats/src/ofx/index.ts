export { parseOfx } from './parse-ofx';
export type { OfxOptions } from './parse-ofx';
