// deno run -A --unstable-kv describe.ts <file or URL> <prefix part>
// Prints one JSON object: for every entry under [prefix], its last key part → what Deno sees
// of its value, as "<kind> <JSON>" ("string \"x\"", "Date 2024-…Z", "object {…}", "null").
const [location, prefix] = Deno.args;
const kv = await Deno.openKv(location);
function describe(v: unknown): string {
  if (v === null) return "null";
  if (v === undefined) return "undefined";
  if (v instanceof Date) return "Date " + v.toISOString();
  if (v instanceof Uint8Array) return "Uint8Array " + JSON.stringify([...v]);
  if (v instanceof Set) return "Set " + JSON.stringify([...v]);
  if (v instanceof Map) return "Map " + JSON.stringify([...v]);
  if (Array.isArray(v)) return "array " + JSON.stringify(v);
  if (typeof v === "bigint") return "bigint " + v;
  if (typeof v === "object") return "object " + JSON.stringify(v);
  return typeof v + " " + JSON.stringify(v);
}
const seen: Record<string, string> = {};
for await (const e of kv.list({ prefix: [prefix] })) {
  seen[String(e.key[e.key.length - 1])] = describe(e.value);
}
console.log(JSON.stringify(seen));
kv.close();
