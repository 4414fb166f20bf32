// deno run -A --unstable-kv differential.ts <db file> <operations.json>
// Runs the operations of operations.json in order (DenoDifferential writes them) and prints
// one JSON array with a result for each: for a commit {"ok":true,"versionstamp":…},
// {"ok":false} or {"error":message}; for a list {"keys":[…],"cursor":…,"then":[…]|null}, the
// keys described by parts, then the keys listed again from the cursor; for a read at a limit
// {"ok":true}; or {"error":message}.
const [file, operationsFile] = Deno.args;
const operations = JSON.parse(await Deno.readTextFile(operationsFile));

// Key parts and values come as small objects naming their JavaScript type ({x: n} is a
// string of n letters x); numbers as text, so that each is a fresh number (one read from a
// JSON number may be stored as a double, docs/values.md §6). A key part is described as the
// value it equals.
const part = (p: any) => value(p) as Deno.KvKeyPart;

// Objects with the same properties share a shape, and V8 keeps one representation per
// property of a shape: once such an object held a fraction in a property, V8 stores every
// number of that property as a double (N), even 628 (docs/values.md §6). An object of the
// shape holding strings first makes every property a tagged field, where each number keeps
// the form of a fresh one, as Kvasir writes it.
const primed = new Set<string>();
function primeShape(keys: string[]) {
  const shape = keys.join("\0");
  if (!primed.has(shape)) {
    Object.fromEntries(keys.map((k) => [k, ""]));
    primed.add(shape);
  }
}

function value(v: any): unknown {
  if (v === null) return null;
  if ("s" in v) return v.s;
  if ("x" in v) return "x".repeat(v.x);
  if ("n" in v) return Number(v.n);
  if ("b" in v) return BigInt(v.b);
  if ("t" in v) return v.t;
  if ("u" in v) return new Uint8Array(v.u);
  if ("u64" in v) return new Deno.KvU64(BigInt(v.u64));
  if ("list" in v) return v.list.map(value);
  if ("obj" in v) {
    primeShape(Object.keys(v.obj));
    return Object.fromEntries(Object.entries(v.obj).map(([k, x]) => [k, value(x)]));
  }
  throw new Error("unknown value " + JSON.stringify(v));
}

// A key part as the operations describe one.
function describe(p: Deno.KvKeyPart): unknown {
  if (typeof p === "string") return { s: p };
  if (typeof p === "number") return { n: String(p) };
  if (typeof p === "bigint") return { b: String(p) };
  if (typeof p === "boolean") return { t: p };
  return { u: Array.from(p as Uint8Array) };
}

function selector(s: any): Deno.KvListSelector {
  const out: any = {};
  for (const name of ["prefix", "start", "end"]) {
    if (name in s) out[name] = s[name].map(part);
  }
  return out;
}

async function listed(sel: Deno.KvListSelector, options: Deno.KvListOptions) {
  const iter = kv.list(sel, options);
  const keys = [];
  for await (const entry of iter) keys.push(entry.key.map(describe));
  return { keys, cursor: iter.cursor };
}

async function list(op: any) {
  const sel = selector(op.selector);
  const options: Deno.KvListOptions = { reverse: op.options.reverse };
  if ("batchSize" in op.options) options.batchSize = op.options.batchSize;
  const first = await listed(sel, "limit" in op.options
    ? { ...options, limit: op.options.limit } : options);
  const then = first.cursor === ""
    ? null : (await listed(sel, { ...options, cursor: first.cursor })).keys;
  return { keys: first.keys, cursor: first.cursor, then };
}

const expiring = (m: any) => "expireIn" in m ? { expireIn: m.expireIn } : {};

// A key of one text part whose encoding is n bytes, and n distinct small keys.
const keyOfLength = (n: number) => ["x".repeat(n - 2)];
const distinctKeys = (n: number) => Array.from({ length: n }, (_, i) => ["none", i]);

async function drain(iter: Deno.KvListIterator<unknown>) {
  for await (const _ of iter);
}

async function watch(keys: Deno.KvKey[]) {
  const reader = kv.watch(keys).getReader();
  await reader.read();
  await reader.cancel();
}

// A read at one of Deno's read limits (DenoReadLimits runs the same on Kvasir).
async function read(op: any) {
  const n = op.size;
  switch (op.kind) {
    case "get": await kv.get(keyOfLength(n)); break;
    case "getMany": await kv.getMany(distinctKeys(n)); break;
    case "listPrefix": await drain(kv.list({ prefix: keyOfLength(n) })); break;
    case "listStart": await drain(kv.list({ start: keyOfLength(n), end: ["z"] })); break;
    case "listEnd": await drain(kv.list({ start: ["a"], end: keyOfLength(n) })); break;
    case "batchSize": await drain(kv.list({ prefix: ["none"] }, { batchSize: n })); break;
    case "watch": await watch([keyOfLength(n)]); break;
    case "watchMany": await watch(distinctKeys(n)); break;
    default: throw new Error("unknown read " + op.kind);
  }
  return { ok: true };
}

const kv = await Deno.openKv(file);
const results = [];
for (const operation of operations) {
  if (operation.op === "list" || operation.op === "read") {
    try {
      results.push(await (operation.op === "list" ? list(operation) : read(operation)));
    } catch (e) {
      results.push({ error: (e as Error).message });
    }
    continue;
  }
  try {
    const op = kv.atomic();
    for (const c of operation.checks) {
      const key = c.key.map(part);
      const versionstamp = c.kind === "current"
        ? (await kv.get(key)).versionstamp
        : c.kind === "absent" ? null : "00000000000000000000";
      op.check({ key, versionstamp });
    }
    for (const m of operation.mutations) {
      const key = m.key.map(part);
      switch (m.type) {
        case "set": op.set(key, value(m.value), expiring(m)); break;
        case "delete": op.delete(key); break;
        case "sum": op.sum(key, BigInt(m.u64)); break;
        case "min": op.min(key, BigInt(m.u64)); break;
        case "max": op.max(key, BigInt(m.u64)); break;
        case "stamped":
          op.set([...key, kv.commitVersionstamp()], value(m.value), expiring(m));
          break;
        default: throw new Error("unknown mutation " + m.type);
      }
    }
    for (const payload of operation.enqueues ?? []) {
      op.enqueue(value(payload), { delay: 86_400_000 });
    }
    const r = await op.commit();
    results.push(r.ok ? { ok: true, versionstamp: r.versionstamp } : { ok: false });
  } catch (e) {
    results.push({ error: (e as Error).message });
  }
}
kv.close();
console.log(JSON.stringify(results));
