// DENO_KV_ACCESS_TOKEN=… deno run -A --unstable-kv read_corrupt.ts <url> <key JSON>...
// Reads each key (a JSON array of strings and numbers) with a 20 s deadline and prints one line
// per key: "value <JSON>", "error <message>" or "hang". Exits 0 either way.
const [url, ...keys] = Deno.args;
const kv = await Deno.openKv(url);
for (const json of keys) {
  const key = JSON.parse(json);
  const timeout = new Promise<string>((resolve) => setTimeout(() => resolve("hang"), 20_000));
  const read = kv.get(key).then(
    (e) => "value " + JSON.stringify(e.value, (_, v) => typeof v === "bigint" ? `${v}n` : v),
    (e) => "error " + String(e?.message ?? e).split("\n")[0],
  );
  console.log(await Promise.race([read, timeout]));
}
kv.close();
Deno.exit(0);
