/** One block of a page, in page order: a chart of the workspace by name, or markdown text. */
export type PageBlock = { chart: string } | { markdown: string };

export function blocksOf(stored: string): PageBlock[] {
  return JSON.parse(stored) as PageBlock[];
}

export function chartNamesOf(blocks: PageBlock[]): string[] {
  return blocks.flatMap((block) => ('chart' in block ? [block.chart] : []));
}
