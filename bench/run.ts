import { catalogThroughput } from './cases/catalog-throughput';
import { firstStart } from './cases/first-start';
import { purchaseThroughput } from './cases/purchase-throughput';
import { searchLatency } from './cases/search-latency';
import { searchMillion } from './cases/search-million';
import { sseFanout } from './cases/sse-fanout';

/**
 * `npm run bench`: each case measures a target and a baseline in the same run and prints their ratio,
 * so results compare across machines. Cases live in bench/cases/*.ts and are listed here.
 */
export type BenchResult = { name: string; value: number; baseline: number; unit: string; ratio: number; target: string; pass: boolean };
export type BenchCase = { name: string; run: () => Promise<BenchResult> };

const cases: BenchCase[] = [catalogThroughput, searchLatency, searchMillion, purchaseThroughput, sseFanout, firstStart];

const only = process.argv.slice(2);
const selected = only.length ? cases.filter((c) => only.some((o) => c.name.toLowerCase().includes(o.toLowerCase()))) : cases;
if (selected.length === 0) {
  console.log('bench: no cases to run yet.');
} else {
  const results: BenchResult[] = [];
  for (const c of selected) {
    console.log(`bench: ${c.name} ...`);
    results.push(await c.run());
  }
  console.log('\ncase | value | baseline | ratio | target | verdict');
  for (const r of results) {
    console.log(
      `${r.name} | ${r.value.toFixed(2)} ${r.unit} | ${r.baseline.toFixed(2)} ${r.unit} | ${r.ratio.toFixed(3)} | ${r.target} | ${r.pass ? 'meets target' : 'misses target'}`,
    );
  }
}
