// deno run -A --unstable-kv queue.ts <mode> <db file>
//   listen:  takes every message already queued. A message "fail" throws (Deno then writes it
//            to its keysIfUndelivered); any other is stored at ["got"], and at ["same"] whether
//            it equals rich() (compared through Deno.inspect). Prints "done" once
//            ["got"] and ["dlq", "fromKvasir"] exist.
//   enqueue: enqueues rich() and a "fail" message that dead-letters to ["dlq", "fromDeno"].
//   dlq:     prints ["dlq", "fromDeno"] as JSON.
const [mode, file] = Deno.args;
const kv = await Deno.openKv(file);

function rich() {
  return {
    text: "hé ✓",
    n: 42.5,
    big: 12345678901234567890n,
    bytes: new Uint8Array([1, 2, 3]),
    when: new Date(1700000000000),
    set: new Set([1, "a"]),
    map: new Map([["k", [true, null, undefined]]]),
  };
}

if (mode === "enqueue") {
  await kv.enqueue(rich());
  await kv.enqueue("fail", { keysIfUndelivered: [["dlq", "fromDeno"]], backoffSchedule: [] });
  kv.close();
  console.log("done");
} else if (mode === "dlq") {
  console.log(JSON.stringify((await kv.get(["dlq", "fromDeno"])).value));
  kv.close();
} else if (mode === "listen") {
  kv.listenQueue(async (msg) => {
    if (msg === "fail") throw new Error("failing on purpose");
    const same = Deno.inspect(msg, { depth: 10 }) === Deno.inspect(rich(), { depth: 10 });
    await kv.atomic().set(["got"], msg).set(["same"], same).commit();
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const [got, dlq] = await kv.getMany([["got"], ["dlq", "fromKvasir"]]);
    if (got.value !== null && dlq.value !== null) {
      console.log("done");
      Deno.exit(0);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  console.log("timed out");
  Deno.exit(1);
} else {
  throw new Error("unknown mode " + mode);
}
