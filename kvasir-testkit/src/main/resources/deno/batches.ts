// deno run -A --unstable-kv batches.ts <db file> <batches>
// Prints {"ready":true}, then for each batch waits for a line on standard input, writes the
// batch (two atomic commits and one single set: puts, expiring puts and deletes) and prints
// {"batch":b,"entries":[[key,value,versionstamp],...]}: everything Deno lists afterwards.
const [file, batches] = Deno.args;
const kv = await Deno.openKv(file);
const stdin = Deno.stdin.readable.getReader();

async function nextLine(): Promise<boolean> {
  while (true) {
    const { value, done } = await stdin.read();
    if (done) return false;
    if (value.includes(10)) return true;
  }
}

async function listAll() {
  const entries: unknown[] = [];
  for await (const e of kv.list({ prefix: [] })) {
    entries.push([e.key, e.value, e.versionstamp]);
  }
  return entries;
}

console.log(JSON.stringify({ ready: true }));
for (let b = 0; b < Number(batches); b++) {
  if (!(await nextLine())) break;
  for (let part = 0; part < 2; part++) {
    const op = kv.atomic();
    for (let i = 0; i < 12; i++) {
      const key = ["item", (b * 7 + part * 29 + i * 13) % 97];
      switch ((b * 31 + part * 11 + i * 17) % 5) {
        case 0:
          op.delete(key);
          break;
        case 1:
          op.set(key, { b, i, expiring: true }, { expireIn: 3_600_000 + b * 1000 });
          break;
        default:
          op.set(key, { b, i, text: "x".repeat(i), at: new Date(1_700_000_000_000 + b) });
      }
    }
    await op.commit();
  }
  await kv.set(["batch"], b);
  console.log(JSON.stringify({ batch: b, entries: await listAll() }));
}
kv.close();
