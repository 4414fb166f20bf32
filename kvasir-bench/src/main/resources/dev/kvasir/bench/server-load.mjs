// ServerLoad's mixed load from Deno clients (its `deno` driver, DenoLoad): CLIENTS clients,
// each its own Deno.openKv connection to KVASIR_URL, each running the mix one operation at a
// time, for WARMUP seconds (not measured) and then SECONDS seconds. The clients are shared out
// over LOOPS event loops (workers of this process, default 1), as a Deno service would run on
// several. The mix is ServerLoad's: 50% get, 20% set, 10% list of 10, 20% check-and-set
// increment of one of 16 counters, retried until it succeeds.
//
// Prints `measuring` when the warm-up ends and `done` when the measured part ends (DenoLoad
// reads the processes' CPU time then), and then the results, one per line:
//   errors N / latency all|KIND COUNT P50_MS P99_MS / increments N,N,…
// the increments being those each counter saw succeed over the whole run.
const COUNTERS = 16;
const ITEMS = 1000;
const KINDS = ["get", "set", "list", "increment"];
const item = (i) => ({ i, name: `item ${i}` });
const random = (n) => Math.floor(Math.random() * n);
const now = () => performance.timeOrigin + performance.now(); // comparable across workers

// One operation of the mix; returns its kind (an index into KINDS).
async function operation(kv, increments) {
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

// Runs `clients` clients from `measureFrom` - warm-up to `end` (both wall-clock ms).
async function load(url, clients, measureFrom, end) {
  const kvs = [];
  for (let i = 0; i < clients; i++) kvs.push(await Deno.openKv(url));
  const increments = new Array(COUNTERS).fill(0);
  const latencies = KINDS.map(() => []);
  let errors = 0;
  const client = async (kv) => {
    for (let start = now(); start < end; start = now()) {
      let kind = -1;
      try {
        kind = await operation(kv, increments);
      } catch (e) {
        if (++errors <= 5) console.error(`error: ${e}`);
      }
      if (start >= measureFrom && kind >= 0) latencies[kind].push(now() - start);
    }
  };
  await Promise.all(kvs.map(client));
  for (const kv of kvs) kv.close();
  return { errors, latencies, increments };
}

const worker = new URL(import.meta.url).searchParams.has("worker");
if (worker) {
  self.onmessage = async (e) => {
    const { url, clients, measureFrom, end } = e.data;
    self.postMessage(await load(url, clients, measureFrom, end));
  };
} else {
  const url = Deno.env.get("KVASIR_URL");
  const [clients, warmup, seconds, loops = 1] = Deno.args.map(Number);
  const setup = await Deno.openKv(url);
  await Promise.all(Array.from({ length: ITEMS }, (_, i) => setup.set(["item", i], item(i))));
  setup.close();

  const measureFrom = now() + warmup * 1000;
  const end = measureFrom + seconds * 1000;
  const runs = [];
  for (let w = 0; w < loops; w++) {
    const share = Math.floor(clients / loops) + (w < clients % loops ? 1 : 0);
    if (w === loops - 1) {
      runs.push(load(url, share, measureFrom, end)); // the last share on this loop
      continue;
    }
    const thread = new Worker(new URL("?worker", import.meta.url), { type: "module" });
    runs.push(new Promise((resolve, reject) => {
      thread.onmessage = (e) => {
        thread.terminate();
        resolve(e.data);
      };
      thread.onerror = reject;
    }));
    thread.postMessage({ url, clients: share, measureFrom, end });
  }
  setTimeout(() => console.log("measuring"), Math.max(0, measureFrom - now()));
  setTimeout(() => console.log("done"), Math.max(0, end - now()));
  const results = await Promise.all(runs);

  const percentile = (sorted, q) =>
    sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
  const printLatency = (kind, values) => {
    const sorted = values.sort((a, b) => a - b);
    console.log(`latency ${kind} ${sorted.length} ${percentile(sorted, 0.5)} ${percentile(sorted, 0.99)}`);
  };
  const byKind = KINDS.map((_, k) => results.flatMap((r) => r.latencies[k]));
  console.log(`errors ${results.reduce((sum, r) => sum + r.errors, 0)}`);
  printLatency("all", byKind.flat());
  KINDS.forEach((kind, k) => printLatency(kind, byKind[k]));
  const increments = new Array(COUNTERS).fill(0);
  for (const r of results) r.increments.forEach((n, c) => (increments[c] += n));
  console.log(`increments ${increments.join(",")}`);
}
