// A Server-Sent Events parser for a fetch() body: EventSource cannot send the
// bearer header, so the worker reads the stream itself.

/** @typedef {{ id: string | null, event: string, data: string }} SseMessage */

export class SseParser {
  /** @param {(message: SseMessage) => void} onMessage */
  constructor(onMessage) {
    this.onMessage = onMessage;
    this.buffer = '';
    /** @type {string[]} */
    this.data = [];
    this.event = '';
    /** @type {string | null} */
    this.id = null;
  }

  /** @param {string} chunk text as it arrived */
  push(chunk) {
    this.buffer += chunk;
    let end;
    while ((end = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.buffer.slice(0, end);
      const newline = this.buffer.startsWith('\r\n', end) ? 2 : 1;
      this.buffer = this.buffer.slice(end + newline);
      this.line(line);
    }
  }

  /** @param {string} line */
  line(line) {
    if (line === '') {
      this.dispatch();
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
  }

  dispatch() {
    if (this.data.length > 0) {
      this.onMessage({ id: this.id, event: this.event || 'message', data: this.data.join('\n') });
    }
    this.data = [];
    this.event = '';
  }
}
