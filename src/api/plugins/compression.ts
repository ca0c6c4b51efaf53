import zlib from 'node:zlib';
import { promisify } from 'node:util';
import { appendHeaderToken, withHeaders, wrapResponse } from './wrap-response';

export interface CompressionOptions {
  /** Answers shorter than this go out as they are: compressing them costs more than it saves. */
  minBytes: number;
  /** Paths whose answers are never compressed. */
  exclude: (path: string) => boolean;
}

type Encoding = 'br' | 'gzip';
type BodyReader = { read(): Promise<{ done: true; value?: undefined } | { done: false; value: Uint8Array }>; cancel(reason?: unknown): Promise<void> };

/** Text formats: JSON, CSV, NDJSON, HTML, scripts, style sheets, SVG, the metrics. Parquet and images are compressed already. */
const compressible = /^(text\/(?!event-stream)|application\/(json|javascript|xml|x-ndjson)|image\/svg\+xml|[a-z]+\/[\w.+-]*\+(json|xml))/i;
/**
 * Fast settings: results are large and made on the fly, so speed wins over the last percent. On a
 * 6 MB JSON result here gzip 4 is within a percent of gzip 6's size; brotli 1 is as fast as gzip 4 and
 * a little smaller, while brotli 4 took six times as long (Bun's brotli is slow past quality 1).
 */
const gzipLevel = 4;
const brotliQuality = 1;
/** Answers that end within this many bytes are compressed whole and sent with their length. */
const wholeAnswerBytes = 256 * 1024;

/**
 * gzip or brotli, as the client's Accept-Encoding prefers (brotli on a tie), for text answers of at
 * least `minBytes`. An answer that ends within 256 KiB goes out compressed in one piece with its
 * length; a longer one (large JSON and CSV results) is compressed as it streams, never held whole.
 */
export function compression(options: CompressionOptions) {
  return wrapResponse('compression', (request, answer) => Promise.resolve(answer()).then((response) => compress(request, response, options)));
}

async function compress(request: Request, response: Response, options: CompressionOptions): Promise<Response> {
  const type = response.headers.get('content-type') ?? '';
  if (request.method === 'HEAD' || !response.body || [204, 304].includes(response.status) || !compressible.test(type)) return response;
  if (
    response.headers.has('content-encoding') ||
    /\bno-transform\b/i.test(response.headers.get('cache-control') ?? '') ||
    options.exclude(new URL(request.url).pathname)
  ) {
    return response;
  }
  const encoding = negotiate(request.headers.get('accept-encoding'));
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (!encoding || declared < options.minBytes) return withHeaders(response, (headers) => appendHeaderToken(headers, 'vary', 'Accept-Encoding'));

  const reader: BodyReader = response.body.getReader();
  const head: Uint8Array[] = [];
  let size = 0;
  // Read up to the threshold, and on to the size of a whole answer: what ends within it goes out in
  // one piece with its length, as it would have uncompressed; what goes on is compressed as it streams.
  while (size < Math.max(options.minBytes, wholeAnswerBytes)) {
    const { done, value } = await reader.read();
    if (done) {
      const bytes = Buffer.concat(head);
      const headers = varyingHeaders(response.headers);
      if (size < options.minBytes) return new Response(bytes, { status: response.status, statusText: response.statusText, headers });
      const compressed = await compressWhole(bytes, encoding);
      headers.set('content-encoding', encoding);
      headers.set('content-length', String(compressed.byteLength));
      return new Response(compressed, { status: response.status, statusText: response.statusText, headers });
    }
    head.push(value);
    size += value.byteLength;
  }
  const headers = varyingHeaders(response.headers);
  headers.set('content-encoding', encoding);
  headers.delete('content-length');
  return new Response(compressedStream(head, reader, encoding), { status: response.status, statusText: response.statusText, headers });
}

const gzipWhole = promisify(zlib.gzip);
const brotliWhole = promisify(zlib.brotliCompress);

/** On zlib's own threads, not the event loop's. */
function compressWhole(bytes: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br' ? brotliWhole(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: brotliQuality } }) : gzipWhole(bytes, { level: gzipLevel });
}

function varyingHeaders(original: Headers): Headers {
  const headers = new Headers(original);
  appendHeaderToken(headers, 'vary', 'Accept-Encoding');
  return headers;
}

/** The accepted encoding with the highest q-value; brotli wins a tie; `*` stands for both. */
export function negotiate(acceptEncoding: string | null): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    if (name) weights.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (encoding: Encoding) => weights.get(encoding) ?? weights.get('*') ?? 0;
  const [best] = (['br', 'gzip'] as const).filter((encoding) => weightOf(encoding) > 0).sort((a, b) => weightOf(b) - weightOf(a));
  return best;
}

/**
 * The bytes already read, then the rest of the body, through the compressor. The client's pace sets
 * the pace: the compressor pauses while the client has not taken what it gave, and a full compressor
 * stops the reading. A client that goes away stops both.
 */
function compressedStream(head: Uint8Array[], reader: BodyReader, encoding: Encoding): ReadableStream<Uint8Array> {
  const compressor =
    encoding === 'br' ? zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: brotliQuality } }) : zlib.createGzip({ level: gzipLevel });
  // Once the client has gone (or the stream ended), late events of the compressor or the body change nothing.
  let settled = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const fail = (error: unknown) => {
          compressor.destroy();
          if (settled) return;
          settled = true;
          controller.error(error);
        };
        compressor.on('data', (chunk: Buffer) => {
          if (settled) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 1) <= 0) compressor.pause();
        });
        compressor.once('end', () => {
          if (settled) return;
          settled = true;
          controller.close();
        });
        compressor.once('error', fail);
        const write = (chunk: Uint8Array) => (compressor.write(chunk) ? undefined : new Promise<void>((resolve) => compressor.once('drain', () => resolve())));
        const pump = async () => {
          for (const chunk of head) await write(chunk);
          for (;;) {
            const { done, value } = await reader.read();
            if (done || settled) break;
            await write(value);
          }
          if (!settled) compressor.end();
        };
        pump().catch(fail);
      },
      pull() {
        if (compressor.isPaused()) compressor.resume();
      },
      cancel(reason) {
        settled = true;
        compressor.destroy();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 4 },
  );
}
