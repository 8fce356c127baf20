// `node dist/db-template-cli.js <dir> <version>`: run by build.mjs to make the database templates once per change.
import { buildDbTemplate } from './template';

const [dir, version] = process.argv.slice(2);
if (!dir || !version) {
  console.error('usage: db-template-cli <dir> <version>');
  process.exit(2);
}
const started = Date.now();
const made: string[] = [];
for (const variant of ['demo', 'base'] as const) if (await buildDbTemplate(dir, version, variant)) made.push(variant);
console.log(
  made.length
    ? `database templates (${made.join(', ')}) made in ${((Date.now() - started) / 1000).toFixed(1)} s: ${dir}`
    : `database templates up to date: ${dir}`,
);
