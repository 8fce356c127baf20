// `node dist/demo-art-cli.js <dir> <version>`: run by build.mjs to make the demo pictures once per change.
import { buildDemoArt } from './cache';

const [dir, version] = process.argv.slice(2);
if (!dir || !version) {
  console.error('usage: demo-art-cli <dir> <version>');
  process.exit(2);
}
const started = Date.now();
const made = await buildDemoArt(dir, version);
console.log(made ? `demo pictures drawn in ${((Date.now() - started) / 1000).toFixed(1)} s: ${dir}` : `demo pictures up to date: ${dir}`);
