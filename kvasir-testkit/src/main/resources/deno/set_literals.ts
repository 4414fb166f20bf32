// deno run -A --unstable-kv set_literals.ts <db file> <name> <JavaScript expression>...
// Sets [name] to the value of each expression, evaluated as Deno evaluates source text, so
// the value is held as V8 holds a literal (its elements kind, its numbers' form).
const [file, ...pairs] = Deno.args;
const kv = await Deno.openKv(file);
for (let i = 0; i < pairs.length; i += 2) {
  await kv.set([pairs[i]], (0, eval)("(" + pairs[i + 1] + ")"));
}
kv.close();
console.log("ok");
