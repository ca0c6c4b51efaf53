// The client of bench/push-memory.ts, in a process of its own so that the service's process holds
// nothing of the client's: streams `bytes` of generated NDJSON records to a push URL, then prints
// `{status, answer, sent, records}` as JSON.
export {};
const [url, token, bytesText] = process.argv.slice(2) as [string, string, string];
const target = Number(bytesText);
let sent = 0;
let records = 0;
const encoder = new TextEncoder();
const body = new ReadableStream<Uint8Array>({
  pull(controller) {
    if (sent >= target) return controller.close();
    const lines: string[] = [];
    for (let i = 0; i < 2_000; i++, records++) {
      lines.push(
        JSON.stringify({
          id: records,
          quantity: records % 1000,
          price: records * 0.25,
          name: `customer ${records}`,
          active: records % 3 === 0,
          ordered_at: '2026-11-21T10:00:00Z',
          city: `city ${records % 500}`,
          note: 'x'.repeat(40),
        }),
      );
    }
    const chunk = encoder.encode(`${lines.join('\n')}\n`);
    sent += chunk.byteLength;
    controller.enqueue(chunk);
  },
});
const response = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${token}` } });
console.log(JSON.stringify({ status: response.status, answer: await response.text(), sent, records }));
