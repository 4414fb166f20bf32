// deno run -A --unstable-kv verify_all.ts <db file> <vectors dir> <expected stamps json file>
// Reads what write_all.ts (or Kvasir) wrote and checks deep equality and versionstamps; prints
// "ok" or every mismatch, exiting 1.
import { isDeepStrictEqual } from "node:util";
import { buildKey, buildValue, load } from "./vectors.ts";

const [file, dir, expectedFile] = Deno.args;
const expected = JSON.parse(await Deno.readTextFile(expectedFile));
const { values, keys } = await load(dir);
const kv = await Deno.openKv(file);
const problems: string[] = [];
const check = (name: string, entry: Deno.KvEntryMaybe<unknown>, want: unknown) => {
  if (entry.versionstamp !== expected[name]) {
    problems.push(`${name}: versionstamp ${entry.versionstamp}, expected ${expected[name]}`);
  }
  if (!isDeepStrictEqual(entry.value, want)) {
    problems.push(`${name}: value ${Deno.inspect(entry.value)}, expected ${Deno.inspect(want)}`);
  }
};
for (const v of values) check("v" + v.id, await kv.get(["v", v.id]), buildValue(v.value, true));
for (const k of keys) {
  if (k.parts.length === 0 || k.same_encoding_as_id !== undefined) continue;
  check("k" + k.id, await kv.get(buildKey(k.parts)), k.id);
}
check("u64", await kv.get(["u64"]), new Deno.KvU64(18446744073709551615n));
check("expiring", await kv.get(["expiring"]), "soon");
const logs = [];
for await (const e of kv.list({ prefix: ["log"] })) logs.push(e);
if (logs.length !== 1 || logs[0].key[1] !== expected["log"] || logs[0].value !== "entry") {
  problems.push("log: " + Deno.inspect(logs));
}
kv.close();
if (problems.length > 0) {
  console.log(problems.join("\n"));
  Deno.exit(1);
}
console.log("ok");
