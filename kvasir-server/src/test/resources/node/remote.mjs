// DENO_KV_ACCESS_TOKEN=… node remote.mjs <@deno/kv esm entry file> <url>
// The @deno/kv Node client's smoke set against a KV Connect server; prints "ok" or each
// problem, exiting 1.
import { isDeepStrictEqual } from "node:util";
import { pathToFileURL } from "node:url";
import { deserialize, serialize } from "node:v8";

const [entry, url] = process.argv.slice(2);
const { openKv, KvU64 } = await import(pathToFileURL(entry).href);
const kv = await openKv(url);
const problems = [];
const expect = (what, got, want) => {
  if (!isDeepStrictEqual(got, want)) {
    problems.push(`${what}: got ${String(got)}, expected ${String(want)}`);
  }
};

// No Uint8Array inside (tried below): Node's v8.serialize writes it as a Node-only host object
// that neither Deno nor Kvasir reads. A top-level Uint8Array travels as raw bytes and is fine.
const value = {
  text: "hé ✓", n: 1.5, big: 12345678901234567890n,
  when: new Date(1700000000000), map: new Map([["k", [true, null]]]), set: new Set([1, "a"]),
};
const written = await kv.set(["node", "v"], value);
expect("set ok", written.ok, true);
const read = await kv.get(["node", "v"]);
expect("get value", read.value, value);
expect("get versionstamp", read.versionstamp, written.versionstamp);

await kv.set(["node", "bytes"], new Uint8Array([1, 2, 3]));
expect("bytes", (await kv.get(["node", "bytes"])).value, new Uint8Array([1, 2, 3]));
const many = await kv.getMany([["node", "v"], ["node", "missing"]]);
expect("getMany", many.map((e) => e.value), [value, null]);

const created = await kv.atomic().check({ key: ["node", "c"], versionstamp: null })
  .set(["node", "c"], 1).commit();
expect("check ok", created.ok, true);
const conflict = await kv.atomic().check({ key: ["node", "c"], versionstamp: null })
  .set(["node", "c"], 2).commit();
expect("check fails", conflict.ok, false);

await kv.set(["node", "u"], new KvU64(1n));
await kv.atomic().sum(["node", "u"], 41n).commit();
expect("sum", (await kv.get(["node", "u"])).value.value, 42n);

for (let i = 0; i < 12; i++) await kv.set(["node", "list", i], i);
const listed = [];
for await (const e of kv.list({ prefix: ["node", "list"] }, { batchSize: 5 })) listed.push(e.value);
expect("list", listed, [...Array(12).keys()]);

// Node's v8.serialize writes a Uint8Array inside a value as a Node host object, which Deno
// does not read: the server refuses the commit (docs/values.md §5), and nothing is stored.
const refused = await kv.set(["node", "nested"], { bytes: new Uint8Array([1]) })
  .then(() => "stored", (e) => String(e.message));
if (!/400.*host object.*Node's v8\.serialize/.test(refused)) {
  problems.push(`nested bytes: expected a 400 naming Node's host object, got ${refused}`);
}
expect("nothing stored", (await kv.get(["node", "nested"])).versionstamp, null);

// A watch, over HTTP/1.1. The client yields nothing for a first state in which no key exists,
// so its first answer is the state after the first set, whether the set came before the
// server's first message or after it.
const watched = kv.watch([["node", "w", "a"], ["node", "w", "b"]]).getReader();
const first = watched.read();
await kv.set(["node", "w", "a"], 1);
expect("watch sees a set", (await first).value.map((e) => e.value), [1, null]);
const second = watched.read();
await kv.set(["node", "w", "b"], 2);
expect("and the next", (await second).value.map((e) => e.value), [1, 2]);
await watched.cancel();

await kv.delete(["node", "c"]);
expect("delete", (await kv.get(["node", "c"])).value, null);

// Kvasir's Java test wrote these before the script ran.
expect("java wrote u64", (await kv.get(["from", "java", "u64"])).value.value, 7n);
expect("java wrote bytes", (await kv.get(["from", "java", "bytes"])).value, new Uint8Array([9, 8]));
// A JS value from Java or Deno is V8 format version 16, which Node 20's V8 does not read; it
// differs from 15 only for buffers past 4 GiB, so the recipe of docs/values.md §2 reads it.
const javaObject = ["from", "java", "object"];
const unread = await kv.get(javaObject).then(() => "read", (e) => String(e.message));
expect("version 16 unread by default", /version/.test(unread), true);
const patched = await openKv(url, {
  encodeV8: serialize,
  decodeV8: (bytes) => deserialize(bytes[0] === 0xff && bytes[1] === 16
    ? Buffer.concat([Buffer.from([0xff, 15]), bytes.subarray(2)]) : bytes),
});
expect("java wrote an object", (await patched.get(javaObject)).value, {
  text: "hé ✓", when: new Date(1700000000000), map: new Map([["k", [true, null]]]),
  bytes: new Uint8Array([1, 2, 3]),
});
expect("and reads its own", (await patched.get(["node", "v"])).value, value);
patched.close();
// ...and reads this one after.
await kv.set(["from", "node"], value);

kv.close();
if (problems.length > 0) {
  console.log(problems.join("\n"));
  process.exit(1);
}
console.log("ok");
