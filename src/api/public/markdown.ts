import MarkdownIt from 'markdown-it';

/**
 * Markdown of public pages, rendered by markdown-it with raw HTML off (an HTML tag in the text shows
 * as text) and its link check on (no `javascript:`, `vbscript:`, `file:` or non-image `data:` URLs).
 * Links open with no referrer and no opener; images from elsewhere are blocked by the page's policy.
 */
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });
const defaultLinkOpen = markdown.renderer.rules.link_open ?? ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  tokens[index]!.attrSet('rel', 'nofollow noopener noreferrer');
  return defaultLinkOpen(tokens, index, options, env, self);
};

export function renderMarkdown(text: string): string {
  return markdown.render(text);
}
