// ServerLoad's mixed load from Deno clients (its `deno` driver, DenoLoad): CLIENTS clients in
// one event loop, each its own Deno.openKv connection to KVASIR_URL, each running the mix one
// operation at a time, for WARMUP seconds (not measured) and then SECONDS seconds. The mix is
// ServerLoad's: 50% get, 20% set, 10% list of 10, 20% check-and-set increment of one of 16
// counters, retried until it succeeds.
//
// Prints `measuring` when the warm-up ends and `done` when the measured part ends (DenoLoad
// reads the processes' CPU time then), and then the results, one per line:
//   errors N / latency all|KIND COUNT P50_MS P99_MS / increments N,N,…
// the increments being those each counter saw succeed over the whole run.
const url = Deno.env.get("KVASIR_URL");
const [clients, warmup, seconds] = Deno.args.map(Number);
const COUNTERS = 16;
const ITEMS = 1000;
const KINDS = ["get", "set", "list", "increment"];

const kvs = [];
for (let i = 0; i < clients; i++) kvs.push(await Deno.openKv(url));
const item = (i) => ({ i, name: `item ${i}` });
await Promise.all(Array.from({ length: ITEMS }, (_, i) => kvs[0].set(["item", i], item(i))));

const increments = new Array(COUNTERS).fill(0);
const latencies = KINDS.map(() => []);
let errors = 0;
const measureFrom = performance.now() + warmup * 1000;
const end = measureFrom + seconds * 1000;

const random = (n) => Math.floor(Math.random() * n);

// One operation of the mix; returns its kind (an index into KINDS).
async function operation(kv) {
  const op = random(100);
  if (op < 50) {
    await kv.get(["item", random(ITEMS)]);
    return 0;
  } else if (op < 70) {
    const i = random(ITEMS);
    await kv.set(["item", i], item(i));
    return 1;
  } else if (op < 80) {
    const from = random(ITEMS - 10);
    const range = { start: ["item", from], end: ["item", from + 10] };
    for await (const _ of kv.list(range, { limit: 10 })) {
      // read and dropped
    }
    return 2;
  }
  const n = random(COUNTERS);
  const key = ["counter", n];
  while (true) {
    const e = await kv.get(key);
    const current = e.value === null ? 0n : e.value.value;
    const r = await kv.atomic().check(e).set(key, new Deno.KvU64(current + 1n)).commit();
    if (r.ok) {
      increments[n]++;
      return 3;
    }
  }
}

async function client(kv) {
  for (let start = performance.now(); start < end; start = performance.now()) {
    let kind = -1;
    try {
      kind = await operation(kv);
    } catch (e) {
      if (++errors <= 5) console.error(`error: ${e}`);
    }
    if (start >= measureFrom && kind >= 0) latencies[kind].push(performance.now() - start);
  }
}

const running = Promise.all(kvs.map(client));
setTimeout(() => console.log("measuring"), Math.max(0, measureFrom - performance.now()));
setTimeout(() => console.log("done"), Math.max(0, end - performance.now()));
await running;

const percentile = (sorted, q) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
const printLatency = (kind, values) => {
  const sorted = values.sort((a, b) => a - b);
  console.log(`latency ${kind} ${sorted.length} ${percentile(sorted, 0.5)} ${percentile(sorted, 0.99)}`);
};
console.log(`errors ${errors}`);
printLatency("all", latencies.flat());
KINDS.forEach((kind, k) => printLatency(kind, latencies[k]));
console.log(`increments ${increments.join(",")}`);
for (const kv of kvs) kv.close();
