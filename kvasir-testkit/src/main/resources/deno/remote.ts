// DENO_KV_ACCESS_TOKEN=… deno run -A --unstable-kv remote.ts <url>
// Every Deno KV operation a remote database supports, against a KV Connect server; prints "ok"
// or each problem, exiting 1.
import { isDeepStrictEqual } from "node:util";

const [url] = Deno.args;
const kv = await Deno.openKv(url);
const problems: string[] = [];
const expect = (what: string, got: unknown, want: unknown) => {
  if (!isDeepStrictEqual(got, want)) {
    problems.push(`${what}: got ${Deno.inspect(got)}, expected ${Deno.inspect(want)}`);
  }
};
const hex = /^[0-9a-f]{20}$/;

// get / set / delete / getMany / expireIn
const r1 = await kv.set(["r", "a"], { hello: "world", n: 1n });
expect("set ok", r1.ok && hex.test(r1.versionstamp), true);
const a = await kv.get(["r", "a"]);
expect("get value", a.value, { hello: "world", n: 1n });
expect("get versionstamp", a.versionstamp, r1.versionstamp);
expect("missing", await kv.get(["r", "nope"]), { key: ["r", "nope"], value: null, versionstamp: null });
await kv.set(["r", "b"], new Uint8Array([1, 2, 3]));
const many = await kv.getMany([["r", "a"], ["r", "b"], ["r", "nope"]]);
expect("getMany values", many.map((e) => e.value), [{ hello: "world", n: 1n }, new Uint8Array([1, 2, 3]), null]);
await kv.delete(["r", "b"]);
expect("deleted", (await kv.get(["r", "b"])).value, null);
await kv.set(["r", "exp"], "x", { expireIn: 60_000 });
expect("expiring readable", (await kv.get(["r", "exp"])).value, "x");

// atomic checks
const fresh = await kv.atomic().check({ key: ["r", "c"], versionstamp: null }).set(["r", "c"], 1).commit();
expect("check null ok", fresh.ok, true);
const stale = await kv.atomic().check({ key: ["r", "c"], versionstamp: null }).set(["r", "c"], 2).commit();
expect("check fails", stale.ok, false);
const cur = await kv.get(["r", "c"]);
expect("check current ok", (await kv.atomic().check(cur).set(["r", "c"], 3).commit()).ok, true);
expect("after checks", (await kv.get(["r", "c"])).value, 3);

// sum / min / max on KvU64
await kv.set(["r", "u"], new Deno.KvU64(10n));
await kv.atomic().sum(["r", "u"], 5n).commit();
expect("sum", (await kv.get<Deno.KvU64>(["r", "u"])).value?.value, 15n);
await kv.atomic().min(["r", "u"], 7n).commit();
expect("min", (await kv.get<Deno.KvU64>(["r", "u"])).value?.value, 7n);
await kv.atomic().max(["r", "u"], 100n).commit();
expect("max", (await kv.get<Deno.KvU64>(["r", "u"])).value?.value, 100n);
await kv.atomic().sum(["r", "u"], 0xffffffffffffffffn).commit();
expect("sum wraps", (await kv.get<Deno.KvU64>(["r", "u"])).value?.value, 99n);
try {
  await kv.atomic().sum(["r", "a"], 1n).commit();
  problems.push("sum on an object did not fail");
} catch (e) {
  expect("sum on object fails", String(e).includes("non-U64"), true);
}

// versionstamped keys
const vs = await kv.atomic().set(["log", kv.commitVersionstamp()], "entry").commit();
const logs = [];
for await (const e of kv.list({ prefix: ["log"] })) logs.push(e);
expect("versionstamped key", logs.map((e) => [e.key[1], e.value]), [[vs.versionstamp, "entry"]]);

// list paging
for (let i = 0; i < 25; i++) await kv.set(["p", i], i);
const all = [];
for await (const e of kv.list({ prefix: ["p"] }, { batchSize: 7 })) all.push(e.value);
expect("list all", all, [...Array(25).keys()]);
const rev = [];
for await (const e of kv.list({ prefix: ["p"] }, { reverse: true, limit: 3 })) rev.push(e.value);
expect("list reverse limit", rev, [24, 23, 22]);
const it = kv.list({ prefix: ["p"] }, { limit: 10 });
for await (const _ of it) { /* first page */ }
const next = [];
for await (const e of kv.list({ prefix: ["p"] }, { limit: 5, cursor: it.cursor })) next.push(e.value);
expect("list cursor", next, [10, 11, 12, 13, 14]);
const ranged = [];
for await (const e of kv.list({ start: ["p", 3], end: ["p", 6] })) ranged.push(e.value);
expect("list range", ranged, [3, 4, 5]);
const started = [];
for await (const e of kv.list({ prefix: ["p"], start: ["p", 22] })) started.push(e.value);
expect("list prefix+start", started, [22, 23, 24]);

// enqueue is refused by Deno's remote client
try {
  await kv.enqueue("x");
  problems.push("enqueue did not fail");
} catch (e) {
  expect("enqueue refused", String(e).includes("not supported"), true);
}

// watch: the first emission is the current state, then each change
const stream = kv.watch([["w", 1], ["w", 2]]);
const reader = stream.getReader();
const first = await reader.read();
expect("watch initial", first.value?.map((e) => e.value), [null, null]);
await kv.set(["w", 2], "two");
const second = await reader.read();
expect("watch change", second.value?.map((e) => e.value), [null, "two"]);
await kv.delete(["w", 2]);
const third = await reader.read();
expect("watch delete", third.value?.map((e) => e.value), [null, null]);
await reader.cancel();

kv.close();
if (problems.length > 0) {
  console.log(problems.join("\n"));
  Deno.exit(1);
}
console.log("ok");
