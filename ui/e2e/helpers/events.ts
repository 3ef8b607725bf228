/**
 * The service's event stream read by the test itself (GET /ui/events with the
 * ui_token), to check what the service said, next to what the page shows.
 */
import type { Service } from './service';

export interface StreamEvent<T = Record<string, unknown>> {
  type: string;
  data: T;
  at?: number;
}

export class EventLog {
  readonly seen: StreamEvent[] = [];
  private readonly abort = new AbortController();
  private done: Promise<void> = Promise.resolve();

  private constructor() {}

  /** Opens the stream and resolves once it is connected (events from then on are kept). */
  static async open(service: Service): Promise<EventLog> {
    const log = new EventLog();
    const response = await fetch(service.url('/ui/events'), {
      headers: { Authorization: `Bearer ${service.uiToken}`, Accept: 'text/event-stream' },
      signal: log.abort.signal,
    });
    if (!response.ok || !response.body) throw new Error(`GET /ui/events → ${response.status}`);
    log.done = log.read(response.body);
    return log;
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trimStart())
            .join('\n');
          if (!data) continue;
          try {
            const event = JSON.parse(data) as StreamEvent;
            if (event && typeof event.type === 'string') this.seen.push(event);
          } catch {
            // not an envelope (a comment or keep-alive)
          }
        }
      }
    } catch {
      // aborted by close()
    }
  }

  /** The events of one type seen so far. */
  of<T = Record<string, unknown>>(type: string): StreamEvent<T>[] {
    return this.seen.filter((e) => e.type === type) as StreamEvent<T>[];
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.done;
  }
}
