// Notes as HTML: Markdown rendered, then sanitised.
import { Marked } from 'marked';
import DOMPurify from 'dompurify';

// Notes are written by models and may contain anything: Markdown is rendered,
// then sanitised to a small set of text tags. Nothing that loads a resource
// (img, media, iframe, style, link) survives, so a note can never make the page
// fetch anything.
const marked = new Marked({ gfm: true, breaks: false, async: false });
marked.use({
  renderer: {
    // Headings inside a note sit under the page's h3 (the note's kind).
    heading({ tokens, depth }) {
      const level = Math.min(6, Math.max(4, depth + 2));
      return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`;
    },
  },
});

const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'strong', 'em', 'b', 'i', 'code', 'pre',
  'blockquote', 'a', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'del', 's', 'sup', 'sub',
];

let hooked = false;
function hook(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      node.setAttribute('rel', 'noreferrer noopener');
      node.setAttribute('target', '_blank');
    }
  });
}

export function renderMarkdown(source: string): string {
  hook();
  const html = marked.parse(source) as string;
  return DOMPurify.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR: ['href', 'start', 'colspan', 'rowspan'],
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
  });
}

/**
 * The note without a first heading that only repeats its title (the page shows
 * the note's kind as its heading already).
 */
export function withoutTitle(source: string, title: string): string {
  const lines = source.split('\n');
  const first = lines.findIndex((line) => line.trim() !== '');
  if (first < 0) return source;
  const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(lines[first].trim());
  if (!heading || heading[1].toLowerCase() !== title.toLowerCase()) return source;
  return lines.slice(first + 1).join('\n');
}
