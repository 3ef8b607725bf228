// The one event stream of the app (/ui/events), shared by its tabs.
import { href } from '../api/path';
import type { AppEvent, EventOf, EventType } from '../api/types';

/**
 * Every event type the stream can carry; one listener each on the shared
 * EventSource. A Record over the generated union, so an event type added to (or
 * removed from) the service's `Event` fails the type check until it is listed.
 */
const EVENT_TYPE_SET: Record<EventType, true> = {
  'recording.started': true,
  'recording.stopped': true,
  'recording.paused': true,
  'recording.muted': true,
  'recording.ending': true,
  'recording.levels': true,
  'recording.channel': true,
  'segment.new': true,
  'segment.partial': true,
  'meeting.updated': true,
  'meeting.ready': true,
  'meeting.deleted': true,
  'prompt.shown': true,
  'prompt.answered': true,
  'marker.added': true,
  'notes.progress': true,
  'transcription.progress': true,
  'models.loading': true,
  'models.loaded': true,
  'models.download': true,
  'models.installed': true,
  'pair.completed': true,
  'settings.changed': true,
  'devices.levels': true,
  'voice.reading': true,
  'segment.speakers': true,
  error: true,
};
const EVENT_TYPES = Object.keys(EVENT_TYPE_SET) as EventType[];

type Listener = (event: AppEvent) => void;

type Relay =
  | { kind: 'event'; raw: string }
  | { kind: 'state'; connected: boolean; lost: boolean }
  | { kind: 'hello' };

/**
 * The one event stream of the app. A browser keeps at most six connections to
 * one host, so the app's tabs share a single EventSource: the tab holding the
 * Web Lock "recorder-events" opens it and relays every message to the other
 * tabs over a BroadcastChannel; when that tab goes, the next one takes over.
 */
class EventStream {
  connected = $state(false);
  /** The connection dropped or could not be made (not just "not opened yet"). */
  lost = $state(false);
  /** Bumped on each (re)connection, so views can refetch what they may have missed. */
  connections = $state(0);
  private running = false;
  private source: EventSource | null = null;
  private channel: BroadcastChannel | null = null;
  private releaseLock: (() => void) | null = null;
  private lockAbort: AbortController | null = null;
  private listeners = new Map<string, Set<Listener>>();
  private any = new Set<Listener>();
  private retry: ReturnType<typeof setTimeout> | null = null;

  start(): void {
    if (this.running) return;
    this.running = true;
    const shared = typeof BroadcastChannel !== 'undefined' && typeof navigator !== 'undefined' && 'locks' in navigator;
    if (!shared) {
      this.open();
      return;
    }
    const channel = new BroadcastChannel('recorder-events');
    this.channel = channel;
    channel.onmessage = (message: MessageEvent<Relay>) => this.relayed(message.data);
    const abort = new AbortController();
    this.lockAbort = abort;
    navigator.locks
      .request('recorder-events', { signal: abort.signal }, () => {
        if (!this.running) return undefined;
        this.open();
        return new Promise<void>((resolve) => (this.releaseLock = resolve));
      })
      .catch(() => {
        // aborted by stop()
      });
    channel.postMessage({ kind: 'hello' } satisfies Relay);
  }

  stop(): void {
    this.running = false;
    this.close();
    this.releaseLock?.();
    this.releaseLock = null;
    this.lockAbort?.abort();
    this.lockAbort = null;
    this.channel?.close();
    this.channel = null;
    this.connected = false;
  }

  private close(): void {
    this.source?.close();
    this.source = null;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
  }

  /** This tab leads: open the EventSource and relay what it brings. */
  private open(): void {
    if (this.source || !this.running) return;
    const source = new EventSource(href('/ui/events'), { withCredentials: true });
    this.source = source;
    source.addEventListener('open', () => {
      this.setState(true, false);
      this.connections += 1;
    });
    const onMessage = (message: Event) => {
      // The SSE event named "error" shares its name with the connection's
      // own error event: only a MessageEvent carries data.
      if (!(message instanceof MessageEvent) || typeof message.data !== 'string') return;
      this.dispatch(message.data);
      this.channel?.postMessage({ kind: 'event', raw: message.data } satisfies Relay);
    };
    for (const type of EVENT_TYPES) source.addEventListener(type, onMessage);
    source.addEventListener('message', onMessage);
    source.addEventListener('error', (event) => {
      if (event instanceof MessageEvent) return;
      this.setState(false, true);
      if (source.readyState === EventSource.CLOSED) {
        // The browser gave up (e.g. 401 or the service restarted): try again.
        this.source = null;
        if (this.retry) clearTimeout(this.retry);
        this.retry = setTimeout(() => this.open(), 3000);
      }
    });
  }

  private setState(connected: boolean, lost: boolean): void {
    this.connected = connected;
    this.lost = lost;
    this.channel?.postMessage({ kind: 'state', connected, lost } satisfies Relay);
  }

  /** A message from the leading tab (or a new tab asking for the state). */
  private relayed(message: Relay): void {
    if (message.kind === 'event') this.dispatch(message.raw);
    else if (message.kind === 'hello') {
      if (this.source) this.channel?.postMessage({ kind: 'state', connected: this.connected, lost: this.lost } satisfies Relay);
    } else if (message.kind === 'state' && !this.source) {
      if (message.connected && !this.connected) this.connections += 1;
      this.connected = message.connected;
      this.lost = message.lost;
    }
  }

  private dispatch(raw: unknown): void {
    if (typeof raw !== 'string') return;
    let event: AppEvent;
    try {
      event = JSON.parse(raw) as AppEvent;
    } catch {
      return;
    }
    if (!event || typeof event.type !== 'string') return;
    for (const listener of this.listeners.get(event.type) ?? []) listener(event);
    for (const listener of this.any) listener(event);
  }

  /** Listen to one event type; returns the function that stops listening. */
  on<K extends EventType>(type: K, listener: (event: EventOf<K>) => void): () => void {
    let set = this.listeners.get(type);
    if (!set) {
      set = new Set();
      this.listeners.set(type, set);
    }
    const wrapped = listener as unknown as Listener;
    set.add(wrapped);
    return () => set.delete(wrapped);
  }

  onAny(listener: Listener): () => void {
    this.any.add(listener);
    return () => this.any.delete(listener);
  }
}

export const events = new EventStream();

/** Use inside a component: listens while the component is mounted. */
export function useEvent<K extends EventType>(type: K, listener: (event: EventOf<K>) => void): void {
  $effect(() => events.on(type, listener));
}
