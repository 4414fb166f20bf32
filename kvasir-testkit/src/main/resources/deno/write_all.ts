// deno run -A --unstable-kv write_all.ts <db file> <vectors dir>
// Writes every value vector at ["v", id], every non-empty key vector with its id as value, a
// KvU64, an expiring key and a versionstamped key; prints {key-name: versionstamp} as JSON.
import { buildKey, buildValue, load } from "./vectors.ts";

const [file, dir] = Deno.args;
const { values, keys } = await load(dir);
const kv = await Deno.openKv(file);
const stamps: Record<string, string> = {};
for (const v of values) {
  stamps["v" + v.id] = (await kv.set(["v", v.id], buildValue(v.value))).versionstamp;
}
for (const k of keys) {
  if (k.parts.length === 0) continue;
  stamps["k" + k.id] = (await kv.set(buildKey(k.parts), k.id)).versionstamp;
}
stamps["u64"] = (await kv.set(["u64"], new Deno.KvU64(18446744073709551615n))).versionstamp;
stamps["expiring"] = (await kv.set(["expiring"], "soon", { expireIn: 3_600_000 })).versionstamp;
const r = await kv.atomic().set(["log", kv.commitVersionstamp()], "entry").commit();
stamps["log"] = (r as Deno.KvCommitResult).versionstamp;
kv.close();
console.log(JSON.stringify(stamps));
