import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { Option, type Command } from '@commander-js/extra-typings';
import { CommandContext, type GlobalOptions } from '../context';
import { CliError, exitCodes } from '../exit-codes';
import { chunksOf, formatOfName, mediaTypes, type Chunk, type ChunkLimits, type PushFormat } from '../push/file-chunks';
import { sendChunk } from '../push/send-chunk';

interface FileResult {
  file: string;
  format: PushFormat;
  chunks: number;
  records_written: number;
}

export function registerPush(program: Command<[], GlobalOptions>): void {
  program
    .command('push')
    .description('Load NDJSON, CSV or Parquet files (optionally .gz) into a table, created when missing')
    .argument('<table>', '<namespace>.<table>')
    .argument('<files...>', 'the files, loaded in this order')
    .addOption(new Option('--format <format>', 'the files’ format, when their names do not say it').choices(['ndjson', 'csv', 'parquet'] as const))
    .addOption(
      new Option('--mode <mode>', 'append, or overwrite the table’s rows (the first chunk overwrites, the others append)')
        .choices(['append', 'overwrite'] as const)
        .default('append' as const),
    )
    .option('--primary-key <columns>', 'key columns, separated by commas: the push upserts on them')
    .option('--chunk-rows <n>', 'records per request', '100000')
    .option('--chunk-mb <n>', 'about this many megabytes per request', '32')
    .option('--gzip', 'compress each request (worth it over slow links)')
    .action(async (table, files, options, command) => {
      const ctx = CommandContext.from(command.optsWithGlobals());
      const limits: ChunkLimits = { rows: positive(options.chunkRows, '--chunk-rows'), bytes: positive(options.chunkMb, '--chunk-mb') * 1_000_000 };
      const plan = files.map((file) => {
        if (!existsSync(file)) throw new CliError(`No file ${file}`, exitCodes.usage);
        const named = formatOfName(file);
        const format = options.format ?? named.format;
        if (!format)
          throw new CliError(
            `Cannot tell the format of ${file} from its name`,
            exitCodes.usage,
            'Name it .ndjson, .jsonl, .csv or .parquet (optionally .gz), or pass --format.',
          );
        return { file, format, gzip: named.gzip };
      });
      const workspaceId = await ctx.workspaceId();
      const totalBytes = plan.reduce((sum, entry) => sum + Bun.file(entry.file).size, 0);
      const progress = ctx.out.progress();
      const started = performance.now();
      let doneBytes = 0;
      let written = 0;
      const results: FileResult[] = [];
      const show = (read: number, force = false) => {
        const seconds = (performance.now() - started) / 1000;
        const megabytes = (doneBytes + read) / 1_000_000;
        progress.update(
          totalBytes ? (doneBytes + read) / totalBytes : undefined,
          `${written.toLocaleString('en')} rows  ${megabytes.toFixed(1)} MB  ${(megabytes / Math.max(seconds, 0.001)).toFixed(1)} MB/s`,
          force,
        );
      };
      try {
        for (const [fileIndex, entry] of plan.entries()) {
          const fileHash = await hashFile(entry.file);
          const result: FileResult = { file: entry.file, format: entry.format, chunks: 0, records_written: 0 };
          let lastRead = 0;
          for await (const chunk of chunksOf(entry.file, entry.format, entry.gzip, limits)) {
            // Only the very first chunk overwrites; everything after it appends to what it left.
            const mode = options.mode === 'overwrite' && fileIndex === 0 && chunk.index === 0 ? 'overwrite' : 'append';
            const answer = await sendChunk(ctx.api, {
              workspaceId,
              table,
              mode,
              primaryKey: options.primaryKey,
              mediaType: mediaTypes[entry.format],
              body: chunk.body,
              gzip: Boolean(options.gzip),
              gzipped: chunk.gzipped,
              idempotencyKey: chunkKey(fileHash, chunk, { table, mode, primaryKey: options.primaryKey ?? '', limits }),
            });
            result.chunks += 1;
            result.records_written += answer.records_written;
            written += answer.records_written;
            lastRead = chunk.readBytes;
            show(chunk.readBytes, true);
          }
          doneBytes += Math.max(lastRead, Bun.file(entry.file).size);
          results.push(result);
        }
      } finally {
        progress.done();
      }
      const seconds = (performance.now() - started) / 1000;
      const summary = { table, records_written: written, bytes: totalBytes, seconds: Number(seconds.toFixed(3)), files: results };
      if (ctx.out.mode === 'json') return ctx.out.json(summary);
      if (ctx.out.mode === 'plain') return ctx.out.write(`${table}\t${written}`);
      for (const result of results)
        ctx.out.write(
          `${basename(result.file)}: ${result.records_written.toLocaleString('en')} records in ${result.chunks} chunk${result.chunks === 1 ? '' : 's'}`,
        );
      ctx.out.write(
        `${written.toLocaleString('en')} records into ${table} in ${seconds.toFixed(1)} s (${(totalBytes / 1_000_000 / Math.max(seconds, 0.001)).toFixed(1)} MB/s)`,
      );
    });
}

function positive(text: string, name: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new CliError(`${name} must be a positive number`, exitCodes.usage);
  return value;
}

async function hashFile(path: string): Promise<string> {
  const hash = new Bun.CryptoHasher('sha256');
  for await (const chunk of Bun.file(path).stream()) hash.update(chunk);
  return hash.digest('hex');
}

/**
 * A chunk's idempotency key: the file's content, the chunk's place in it and everything that decides
 * what the chunk holds and how it is written. A rerun of the same push sends the same keys, so the
 * chunks that were written before a failure are answered from the service's record instead of being
 * written twice (for 24 hours, as long as the service keeps keys).
 */
function chunkKey(fileHash: string, chunk: Chunk, push: { table: string; mode: string; primaryKey: string; limits: ChunkLimits }): string {
  const hash = new Bun.CryptoHasher('sha256');
  hash.update(JSON.stringify([fileHash, chunk.index, push.table.toLowerCase(), push.mode, push.primaryKey, push.limits.rows, push.limits.bytes]));
  return `oxbow-push-${hash.digest('hex')}`;
}
