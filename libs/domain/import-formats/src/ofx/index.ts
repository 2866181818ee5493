export { parseOfx } from './parse-ofx';
