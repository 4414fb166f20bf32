// deno run -A --unstable-kv read_each.ts <db file>...
// For each file prints {"file":f,"entries":[[key,value,versionstamp],...]}.
for (const file of Deno.args) {
  const kv = await Deno.openKv(file);
  const entries: unknown[] = [];
  for await (const e of kv.list({ prefix: [] })) {
    entries.push([e.key, e.value, e.versionstamp]);
  }
  kv.close();
  console.log(JSON.stringify({ file, entries }));
}
