// The viewers of the public-chart benchmark, in a process of their own so that their requests and
// their reading of the answers do not take the service's event loop: `bun bench/public-chart-viewers.ts
// <url> <viewers> <together|one-by-one>` prints each view's latency in milliseconds as a JSON array.
const [url, count, mode] = process.argv.slice(2);
if (!url || !count || (mode !== 'together' && mode !== 'one-by-one')) throw new Error('usage: public-chart-viewers.ts <url> <viewers> <together|one-by-one>');
const viewers = Number(count);

/** One view: the whole HTML page, from the viewer's own address; its latency. */
async function view(viewer: number): Promise<number> {
  const startedAt = performance.now();
  const response = await fetch(url!, { headers: { 'x-forwarded-for': `10.${viewer >> 8}.${viewer & 255}.1` } });
  const html = await response.text();
  if (response.status !== 200 || !html.includes('<svg')) throw new Error(`view failed: ${response.status}`);
  return performance.now() - startedAt;
}

const latencies: number[] = [];
if (mode === 'together') {
  latencies.push(...(await Promise.all(Array.from({ length: viewers }, (_, viewer) => view(viewer)))));
} else {
  for (let viewer = 0; viewer < viewers; viewer++) latencies.push(await view(viewer));
}
console.log(JSON.stringify(latencies));

// A module, for its top-level awaits.
export {};
