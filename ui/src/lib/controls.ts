// The recording controls: start, stop, pause, mute, keep and markers, shared
// by the recording page, the recording bar and the countdown card.
import { api, ApiError, messageOf } from '../api/client';
import type { Body } from '../api/path';
import type { Meeting } from '../api/types';
import { clock } from './format';
import { recording } from './live.svelte';

export async function startRecording(title: string, language?: string): Promise<Meeting> {
  const body: Body<'/ui/recording/start', 'post'> = {};
  if (title.trim()) body.title = title.trim();
  if (language) body.language = language;
  try {
    const meeting = await api.post('/ui/recording/start', { body });
    if (!recording.active) {
      recording.active = true;
      recording.meetingId = meeting.id;
      recording.title = meeting.title;
      recording.startedAt = meeting.started_at;
    }
    return meeting;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'model_unavailable') {
      throw new Error('No transcription model is installed — install a transcription model in Settings → Transcription.');
    }
    throw error;
  }
}

export async function stopRecording(): Promise<string> {
  const reply = await api.post('/ui/recording/stop');
  recording.lastMeetingId = reply.meeting_id;
  recording.lastStopReason = 'person';
  await recording.refresh();
  return reply.meeting_id;
}

/** Mutes the microphone channel (silence is recorded in its place) or turns it on again. */
export async function setMuted(muted: boolean): Promise<string> {
  try {
    const reply = await api.post('/ui/recording/mute', { body: { muted } });
    recording.muted = reply.muted;
    return reply.muted ? 'Microphone muted.' : 'Microphone on again.';
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_recording') await recording.refresh();
    throw error;
  }
}

/** Calls off the countdown to stopping by itself: the recording goes on. */
export async function keepRecording(): Promise<void> {
  try {
    await api.post('/ui/recording/keep');
    recording.ending = null;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_recording') {
      await recording.refresh();
      throw new Error('The recording has already stopped.');
    }
    throw error;
  }
}

export async function setPaused(paused: boolean): Promise<void> {
  const reply = await api.post('/ui/recording/pause', { body: { paused } });
  if (reply.paused !== recording.paused) await recording.refresh();
}

export async function addMarker(label?: string): Promise<string> {
  const body: Body<'/ui/recording/marker', 'post'> = {};
  if (label?.trim()) body.label = label.trim();
  const marker = await api.post('/ui/recording/marker', { body });
  return `Marker “${marker.label}” added at ${clock(marker.at_ms)}`;
}

export { messageOf };
